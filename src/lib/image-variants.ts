// Uploaded product images come in a few widths and two formats, named from the original's content hash,
// so a page derives every variant from the one `img` URL a tool stores (the original's).

/**
 * The widths stored for each upload. Neighbours are at most 1.34× apart: when the browser takes the next width up
 * from what a slot needs, that is still under twice the pixels it shows.
 */
export const VARIANT_WIDTHS = [360, 480, 640, 800, 960, 1280] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];
/** Every variant is cropped to the 4:3 frame the cards and the tool page show it in. */
export const VARIANT_ASPECT = 3 / 4;
export const VARIANT_FORMATS = ['avif', 'webp'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

const UPLOAD_URL = /^\/api\/images\/([0-9a-f]{32})\.(?:jpg|png|webp)$/;

export const variantName = (hash: string, width: VariantWidth, format: VariantFormat) => `${hash}-${width}.${format}`;

export interface ImageSources {
  /** `srcset` per format, best first. */
  srcsets: { format: VariantFormat; type: string; srcset: string }[];
  /** For browsers without srcset: a middle width in the widely supported format. */
  fallback: string;
}

/** The variants of a stored upload, or null for an image that has none (an SVG, an image host's URL). */
export function imageSources(img: string): ImageSources | null {
  const hash = UPLOAD_URL.exec(img)?.[1];
  if (!hash) return null;
  const url = (width: VariantWidth, format: VariantFormat) => `/api/images/${variantName(hash, width, format)}`;
  return {
    srcsets: VARIANT_FORMATS.map((format) => ({
      format,
      type: `image/${format}`,
      srcset: VARIANT_WIDTHS.map((w) => `${url(w, format)} ${w}w`).join(','),
    })),
    fallback: url(640, 'webp'),
  };
}

/** A card in the 1/2/3-column grid of home and the catalogue (container 72rem, padding 1-1.5rem, gap 1.5rem). */
export const CARD_SIZES =
  '(min-width: 1024px) min(calc((100vw - 6rem) / 3), 22rem), (min-width: 640px) calc((100vw - 4.5rem) / 2), calc(100vw - 2rem)';
/** The tool page's picture: full width on phones, half of the two columns from 1024 px. */
export const DETAIL_SIZES =
  '(min-width: 1024px) min(calc(50vw - 3rem), 33rem), (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)';

/** The smallest stored width, for a thumbnail in a list; the image itself when it has no variants. */
export const thumbnailUrl = (img: string) =>
  imageSources(img) ? img.replace(/\.\w+$/, `-${VARIANT_WIDTHS[0]}.webp`) : img;
