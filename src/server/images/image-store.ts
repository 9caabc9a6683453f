// Product images: sniffed by content (never by name), size-capped, stored on disk or on the image host.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { IMAGE_MAX_BYTES } from '../../lib/constants';

/** The one upload limit, shared with the add-product form. */
export const MAX_IMAGE_BYTES = IMAGE_MAX_BYTES;

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';
const EXTENSIONS: Record<ImageType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length > 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export interface ImageStore {
  /** Stores the image and returns the URL to show it at. */
  save(bytes: Uint8Array, type: ImageType): Promise<string>;
  /** Reads a locally stored image (disk store only). */
  read?(name: string): Promise<{ bytes: Buffer; type: ImageType } | undefined>;
}

export function diskImageStore(dataDir: string): ImageStore {
  const dir = path.join(dataDir, 'uploads');
  return {
    async save(bytes, type) {
      // Content-addressed: the same file uploaded twice is stored once, and the URL can be cached forever.
      const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${EXTENSIONS[type]}`;
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), bytes);
      return `/api/images/${name}`;
    },
    async read(name) {
      const match = /^[0-9a-f]{32}\.(jpg|png|webp)$/.exec(name);
      if (!match) return undefined;
      const type = (Object.keys(EXTENSIONS) as ImageType[]).find((t) => EXTENSIONS[t] === match[1])!;
      try {
        return { bytes: await readFile(path.join(dir, name)), type };
      } catch {
        return undefined;
      }
    },
  };
}

/** The third-party image host of the spec (ImgBB): the key stays on the server. */
export function imgbbImageStore(apiKey: string, fetchImpl: typeof fetch = fetch): ImageStore {
  return {
    async save(bytes, type) {
      const form = new FormData();
      form.append('image', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), `upload.${EXTENSIONS[type]}`);
      const response = await fetchImpl(`https://api.imgbb.com/1/upload?key=${encodeURIComponent(apiKey)}`, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(20_000),
      });
      const result = (await response.json().catch(() => null)) as { success?: boolean; data?: { url?: string } } | null;
      if (!response.ok || !result?.success || !result.data?.url) throw new Error(`image host answered ${response.status}`);
      return result.data.url;
    },
  };
}
