import { Hono } from 'hono';
import { adminOnly } from '../auth/guards';
import { ApiError, badRequest, notFound } from '../http/errors';
import { logger } from '../logger';
import type { AppEnv, Deps } from '../types';
import { MAX_IMAGE_BYTES, sniffImageType } from './image-store';

export function imagesRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .post('/images', adminOnly(deps), async (c) => {
      const length = Number(c.req.header('content-length') ?? 0);
      if (length > MAX_IMAGE_BYTES + 64 * 1024) throw tooLarge();
      if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
        throw new ApiError(415, 'unsupported_media_type', 'Send the image as multipart/form-data');
      }
      const form = await c.req.formData().catch(() => {
        throw badRequest('Malformed upload');
      });
      const file = form.get('image');
      if (!(file instanceof File)) throw badRequest('Choose an image to upload', { image: 'Choose an image to upload' });
      if (file.size > MAX_IMAGE_BYTES) throw tooLarge();
      const bytes = new Uint8Array(await file.arrayBuffer());
      const type = sniffImageType(bytes);
      if (!type) throw new ApiError(415, 'unsupported_media_type', 'Only JPEG, PNG or WebP images are accepted');
      let url: string;
      try {
        url = await deps.images.save(bytes, type);
      } catch (error) {
        logger.error({ err: (error as Error).message }, 'image upload failed');
        throw new ApiError(502, 'image_host_failed', 'The image could not be stored. Please try again.');
      }
      // The image host's answer shape, which the add-product form reads.
      return c.json({ success: true, data: { url } }, 201);
    })
    .get('/images/:name', async (c) => {
      const image = await deps.images.read?.(c.req.param('name'));
      if (!image) throw notFound('Image');
      c.header('Content-Type', image.type);
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(new Uint8Array(image.bytes));
    });
}

const tooLarge = () =>
  new ApiError(413, 'too_large', `The image is too big: at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`, {
    image: `At most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`,
  });
