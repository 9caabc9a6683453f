// Product images' storage, three adapters of ports.ts's ImageStorage: sniffed by content (never by name),
// decoded, stored on disk, in the database (with their resized variants) or on the image host. The size cap (IMAGE_MAX_BYTES,
// shared with the add-product form) is checked by images.routes.ts while the upload is read.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { VARIANT_WIDTHS, type VariantWidth } from '../../lib/image-variants.ts';
import type { Queryable } from '../db/client.ts';
import { assertReadable, makeVariants, UnreadableImageError, type StoredFile } from './variants.ts';
import type { ImageStorage, ImageType, StoredImage } from '../ports.ts';

const EXTENSIONS: Record<ImageType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length > 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

const contentHash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);
/** Content-addressed: the same file uploaded twice is stored once, and every URL can be cached forever. */
const NAME = /^([0-9a-f]{32})(?:\.(jpg|png|webp)|-(\d+)\.(avif|webp))$/;
const TYPES_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** Where a local store keeps its files. */
interface FileShelf {
  put(file: StoredFile): Promise<void>;
  get(name: string): Promise<StoredImage | undefined>;
}

/** Uploads with their variants on a shelf (disk or database); one URL per upload, the original's. */
function localImageStorage(shelf: FileShelf): ImageStorage {
  const making = new Map<string, Promise<void>>();
  // Uploads from before variants existed get theirs on first request, once even when asked for in parallel.
  const makeMissingVariants = (hash: string) => {
    let job = making.get(hash);
    if (!job) {
      job = (async () => {
        for (const ext of Object.values(EXTENSIONS)) {
          const original = await shelf.get(`${hash}.${ext}`);
          if (!original) continue;
          for (const variant of await makeVariants(hash, original.bytes)) await shelf.put(variant);
          return;
        }
      })().finally(() => making.delete(hash));
      making.set(hash, job);
    }
    return job;
  };
  return {
    async save(bytes, type) {
      const hash = contentHash(bytes);
      const name = `${hash}.${EXTENSIONS[type]}`;
      // Variants first: a stored original always has its variants, and an unreadable file stores nothing.
      for (const variant of await makeVariants(hash, bytes)) await shelf.put(variant);
      await shelf.put({ name, type, bytes: Buffer.from(bytes) });
      return `/api/images/${name}`;
    },
    async read(name) {
      const match = NAME.exec(name);
      if (!match || (match[3] && !VARIANT_WIDTHS.includes(Number(match[3]) as VariantWidth))) return undefined;
      const found = await shelf.get(name);
      if (found || !match[3]) return found;
      try {
        await makeMissingVariants(match[1]);
      } catch (error) {
        if (error instanceof UnreadableImageError) return undefined;
        throw error;
      }
      return shelf.get(name);
    },
  };
}

/** Uploads in the shared PostgreSQL, so every server behind the proxy serves every image. */
export function databaseImageStorage(db: Queryable): ImageStorage {
  return localImageStorage({
    async put({ name, type, bytes }) {
      await db.query('INSERT INTO images (name, type, bytes) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
        name,
        type,
        bytes,
      ]);
    },
    async get(name) {
      const [row] = await db.query<{ type: string; bytes: Buffer | Uint8Array }>(
        'SELECT type, bytes FROM images WHERE name = $1',
        [name],
      );
      return row && { bytes: Buffer.from(row.bytes), type: row.type };
    },
  });
}

/** Uploads on local disk: the embedded default (one process, PGlite). */
export function diskImageStorage(dataDir: string): ImageStorage {
  const dir = path.join(dataDir, 'uploads');
  return localImageStorage({
    async put({ name, bytes }) {
      await mkdir(dir, { recursive: true });
      // Written aside and renamed: a reader never sees half a file (and would cache it forever).
      const partial = path.join(dir, `.${name}.${randomUUID()}`);
      await writeFile(partial, bytes);
      await rename(partial, path.join(dir, name));
    },
    async get(name) {
      try {
        return { bytes: await readFile(path.join(dir, name)), type: TYPES_BY_EXTENSION[path.extname(name).slice(1)] };
      } catch {
        return undefined;
      }
    },
  });
}

/** The third-party image host of the spec (ImgBB): the key stays on the server. */
export function imgbbImageStorage(apiKey: string, fetchImpl: typeof fetch = fetch): ImageStorage {
  return {
    async save(bytes, type) {
      await assertReadable(bytes);
      const form = new FormData();
      form.append('image', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), `upload.${EXTENSIONS[type]}`);
      const response = await fetchImpl(`https://api.imgbb.com/1/upload?key=${encodeURIComponent(apiKey)}`, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(20_000),
      });
      const result = (await response.json().catch(() => null)) as { success?: boolean; data?: { url?: string } } | null;
      if (!response.ok || !result?.success || !result.data?.url)
        throw new Error(`image host answered ${response.status}`);
      return result.data.url;
    },
  };
}
