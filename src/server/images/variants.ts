// The resized copies a page shows instead of the upload: each width in AVIF (about 40% smaller than WebP
// on product photos) and WebP (for browsers without AVIF), cropped to the 4:3 frame they are shown in.
import type { OutputInfo, Sharp } from 'sharp';

import {
  VARIANT_ASPECT,
  VARIANT_FORMATS,
  VARIANT_WIDTHS,
  variantName,
  type VariantFormat,
} from '../../lib/image-variants.ts';

/**
 * A 5 MB PNG can declare a gigapixel canvas; decoding stops past this (a 48 MP phone photo still passes),
 * so one upload cannot take the server's memory.
 */
const MAX_INPUT_PIXELS = 50_000_000;

export interface StoredFile {
  name: string;
  type: string;
  bytes: Buffer;
}

export class UnreadableImageError extends Error {}

/** sharp and libvips (~20 MiB resident) load with the first upload, not with every server. */
const loadSharp = async () => (await import('sharp')).default;

// AVIF effort 2: a few hundred ms per upload for nearly the bytes of the slow settings.
const encode: Record<VariantFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 2 }),
  webp: (image) => image.webp({ quality: 78 }),
};

/** Every variant of an upload; throws UnreadableImageError when the bytes do not decode as an image. */
export async function makeVariants(hash: string, bytes: Uint8Array): Promise<StoredFile[]> {
  const widest = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1];
  const sharp = await loadSharp();
  let frame: { data: Buffer; info: OutputInfo };
  try {
    // Decoded once, already cropped and at the widest size: each variant then resizes a few megabytes.
    frame = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate() // the camera's orientation, before the metadata is dropped
      .resize({ width: widest, height: Math.round(widest * VARIANT_ASPECT), fit: 'cover', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new UnreadableImageError((error as Error).message);
  }
  const { width, height, channels } = frame.info;
  const files: StoredFile[] = [];
  for (const target of VARIANT_WIDTHS) {
    for (const format of VARIANT_FORMATS) {
      const resized = sharp(frame.data, { raw: { width, height, channels } }).resize({
        width: target,
        height: Math.round(target * VARIANT_ASPECT),
        fit: 'cover',
        withoutEnlargement: true,
      });
      files.push({
        name: variantName(hash, target, format),
        type: `image/${format}`,
        bytes: await encode[format](resized).toBuffer(),
      });
    }
  }
  return files;
}

/** For a store that keeps no variants (the image host): the same refusal of what does not decode. */
export async function assertReadable(bytes: Uint8Array): Promise<void> {
  const sharp = await loadSharp();
  try {
    await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).stats();
  } catch (error) {
    throw new UnreadableImageError((error as Error).message);
  }
}
