// Public reads: a weak ETag over the body, so browsers and proxies revalidate cheaply (304), and a large
// body (the whole catalogue) compressed for clients that accept it, once per body.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import type { Shows } from '../caching/changes.ts';
import type { Encoding } from '../types.ts';

/**
 * Body (UTF-8 bytes) and ETag per answered object. The catalogue and review page caches hand out the
 * same object until a write replaces it, so a cached read is serialised and hashed once, not per request.
 * Callers must not mutate an object after answering with it.
 */
const serialised = new WeakMap<object, Serialised>();
interface Serialised {
  body: Buffer;
  etag: string;
  /** The body compressed, made when a client first asks for it. */
  encoded?: Partial<Record<Encoding, Buffer>>;
}

/**
 * From this size a body goes compressed to a client that accepts it: the whole catalogue of 2,000 tools is
 * ~1 MB of JSON, ~35 kB in brotli. Below it (a tool, a short page of reviews) a body fits the first round trips
 * anyway.
 */
export const COMPRESS_FROM_BYTES = 16 * 1024;

/** The encoding a request's Accept-Encoding allows, brotli first: for API answers and rendered pages alike. */
export const encodingFor = (accepts: string | undefined): Encoding | undefined =>
  accepts ? (/\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : undefined) : undefined;

/**
 * The body in `encoding`, compressed once. The fastest settings: a stock change makes a new catalogue
 * body, and 1 MB takes ~0.6 ms at brotli 1 (~0.9 ms gzip 1) for ~30x fewer bytes to every reader;
 * quality 5 would take several times longer for a few percent less.
 */
function encodedBody(entry: Serialised, encoding: Encoding): Buffer {
  entry.encoded ??= {};
  return (entry.encoded[encoding] ??=
    encoding === 'br'
      ? brotliCompressSync(entry.body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length },
        })
      : gzipSync(entry.body, { level: 1 }));
}

const etagOf = (text: string) => createHash('sha1').update(text).digest('base64url');
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * An array (the catalogue) is serialised element by element, each element once: after one tool's stock
 * changed, the new list reuses every other tool's bytes (one copy of each into the new body, no string
 * joined and encoded again: that was a fifth of the server's time while orders flowed beside reads of
 * 2,000 tools), and its ETag hashes the elements' ETags (a few bytes each) instead of the whole body.
 */
function serialise(data: unknown): Serialised {
  const cacheable = typeof data === 'object' && data !== null;
  let entry = cacheable ? serialised.get(data) : undefined;
  if (!entry) {
    if (Array.isArray(data) && data.every((item) => typeof item === 'object' && item !== null)) {
      const parts = data.map(serialise);
      const chunks: Buffer[] = [OPEN];
      parts.forEach((part, i) => (i ? chunks.push(COMMA, part.body) : chunks.push(part.body)));
      chunks.push(CLOSE);
      entry = { body: Buffer.concat(chunks), etag: `W/"${etagOf(`[${parts.map((p) => p.etag).join(',')}]`)}"` };
    } else {
      const body = JSON.stringify(data);
      entry = { body: Buffer.from(body), etag: `W/"${etagOf(body)}"` };
    }
    if (cacheable) serialised.set(data, entry);
  }
  return entry;
}

export interface CachedJsonOptions {
  maxAgeSeconds?: number;
  /**
   * The canonical URL of this answer: the path and only the query parameters the route reads, in a
   * fixed order. The outer server keeps one copy per key (public-reads.ts), so junk parameters cannot
   * make it hold a copy per URL. Without a key, an answer to a URL with a query is not kept.
   */
  key?: string;
  /** What the answer shows: its kept copy goes stale only when that changes (none: on any change). */
  shows?: Shows;
}

export function cachedJson(c: Context, data: unknown, { maxAgeSeconds = 0, key, shows }: CachedJsonOptions = {}) {
  const entry = serialise(data);
  const { body, etag } = entry;
  const cacheControl = `public, max-age=${maxAgeSeconds}, must-revalidate`;
  const compressible = body.length >= COMPRESS_FROM_BYTES;
  // The outer server may answer this URL again from memory until the data changes (public-reads.ts).
  const canonical = key ?? (new URL(c.req.url).search ? undefined : c.req.path);
  if (canonical !== undefined) {
    const encoded = compressible ? (encoding: Encoding) => encodedBody(entry, encoding) : undefined;
    c.env?.keep?.({ body, etag, cacheControl, key: canonical, shows, encoded });
  }
  c.header('ETag', etag);
  c.header('Cache-Control', cacheControl);
  // The weak ETag stands for every encoding of the same JSON (they are equivalent), so a 304 serves any.
  if (compressible) c.header('Vary', 'Accept-Encoding');
  if (c.req.header('if-none-match') === etag) return c.body(null, 304);
  c.header('Content-Type', 'application/json; charset=UTF-8');
  const encoding = compressible ? encodingFor(c.req.header('accept-encoding')) : undefined;
  if (encoding) c.header('Content-Encoding', encoding);
  // Buffer.concat, Buffer.from and zlib allocate plain ArrayBuffers (never shared ones).
  return c.body((encoding ? encodedBody(entry, encoding) : body) as Uint8Array<ArrayBuffer>);
}
