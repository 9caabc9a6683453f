import { imagesContract } from '../../lib/contracts/images.ts';
import { adminOnly, anyone } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { ApiError } from '../http/errors.ts';
import { invalid, notFound } from '../errors.ts';
import { readBounded } from '../http/validate.ts';
import { logger } from '../observability/logger.ts';
import type { Deps } from '../types.ts';
import { IMAGE_MAX_BYTES } from '../../lib/limits.ts';
import { sniffImageType } from './storage.ts';
import { UnreadableImageError } from './variants.ts';

export function imagesRoutes(deps: Deps) {
  return contractRouter(deps)
    .on(imagesContract.upload, adminOnly(deps), async (c) => {
      const type = c.req.header('content-type') ?? '';
      if (!/^multipart\/form-data\b/i.test(type)) {
        throw new ApiError(415, 'unsupported_media_type', 'Send the image as multipart/form-data');
      }
      // Read within the limit first (with or without a Content-Length), then parse what was read.
      const body = await readBounded(c.req.raw, IMAGE_MAX_BYTES + 64 * 1024, tooLarge);
      const form = await new Response(body, { headers: { 'content-type': type } }).formData().catch(() => {
        throw invalid('Malformed upload');
      });
      const file = form.get('image');
      if (!(file instanceof File)) throw invalid('Choose an image to upload', { image: 'Choose an image to upload' });
      if (file.size > IMAGE_MAX_BYTES) throw tooLarge();
      const bytes = new Uint8Array(await file.arrayBuffer());
      const imageType = sniffImageType(bytes);
      if (!imageType) throw new ApiError(415, 'unsupported_media_type', 'Only JPEG, PNG or WebP images are accepted');
      let url: string;
      try {
        url = await deps.images.save(bytes, imageType);
      } catch (error) {
        if (error instanceof UnreadableImageError) {
          throw new ApiError(
            415,
            'unreadable_image',
            'The image could not be read: send a JPEG, PNG or WebP photo of at most 50 megapixels',
          );
        }
        logger.error({ err: (error as Error).message }, 'image upload failed');
        throw new ApiError(502, 'image_host_failed', 'The image could not be stored. Please try again.');
      }
      // The image host's answer shape, which the add-product form reads.
      return { success: true, data: { url } };
    })
    .on(imagesContract.get, anyone, async (c, { params: { name } }) => {
      // The name is the content's hash: the same name is always the same bytes.
      const etag = `"${name}"`;
      if (c.req.header('if-none-match') === etag) {
        c.header('ETag', etag);
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
        return c.body(null, 304);
      }
      const image = await deps.images.read?.(name);
      if (!image) throw notFound('Image');
      c.header('ETag', etag);
      c.header('Content-Type', image.type);
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(new Uint8Array(image.bytes));
    }).app;
}

const tooLarge = () =>
  new ApiError(413, 'too_large', `The image is too big: at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`, {
    image: `At most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
  });
