// Product images: uploaded by admins, served from our origin (or the image host's URL with IMGBB_API_KEY).
import { z } from 'zod';
import { IMAGE_MAX_BYTES } from '../limits.ts';
import { get, post, refusal } from './route.ts';

export const imagesContract = {
  upload: post('/images', 'Upload a product image', {
    description: `A JPEG, PNG or WebP photo of at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB and 50 megapixels, as the form field \`image\`. The answer has the image host's shape, which the add-product form reads.`,
    body: {
      schema: z.object({ image: z.string().meta({ format: 'binary' }).describe('The image file') }),
      type: 'multipart/form-data',
    },
    responses: {
      201: {
        description: 'Stored',
        schema: z.strictObject({ success: z.literal(true), data: z.strictObject({ url: z.string() }) }),
      },
      502: refusal('The image host failed'),
    },
  }),
  get: get('/images/{name}', 'An uploaded image', {
    description: "The name is the content's hash, so the answer never changes: cached for a year.",
    cached: true,
    params: z.object({ name: z.string() }),
    responses: {
      200: { description: 'The image', type: 'image/*' },
      404: refusal('No such image'),
    },
  }),
};
