// Public reads: a weak ETag over the body, so browsers and proxies revalidate cheaply (304), and a large
// body (the whole catalogue) compressed for clients that accept it, once per body; a list's gzip is joined
// from its runs' (gzip-parts.ts), so a stock change compresses only the run it changed.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { gzipOfParts, gzipPart, type GzipPart } from './gzip-parts.ts';
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
  length: number;
  etag: string;
  /** The UTF-8 bytes; a list's are joined from its runs when first asked for. */
  body(): Buffer;
  /** The encodings it is sent in, the one to prefer first (see a list's runs). */
  offered: readonly Encoding[];
  /** The body compressed, made when a client first asks for it. */
  encoded?: Partial<Record<Encoding, Buffer>>;
  /** A list: its elements in runs of RUN_LENGTH, each serialised (and deflated) on its own. */
  runs?: readonly Run[];
}

/**
 * From this size a body goes compressed to a client that accepts it: the whole catalogue of 2,000 tools is
 * ~1 MB of JSON, ~35 kB in brotli. Below it (a tool, a short page of reviews) a body fits the first round trips
 * anyway.
 */
export const COMPRESS_FROM_BYTES = 16 * 1024;

const BROTLI_FIRST: readonly Encoding[] = ['br', 'gzip'];
/** A list's gzip is joined from its runs' (gzip-parts.ts); brotli is made whole, for a client without gzip. */
const GZIP_FIRST: readonly Encoding[] = ['gzip', 'br'];

/**
 * The encoding a request's Accept-Encoding allows, in the order `offered` prefers (brotli first unless a
 * body says otherwise): for API answers and rendered pages alike.
 */
export function encodingFor(accepts: string | undefined, offered = BROTLI_FIRST): Encoding | undefined {
  if (!accepts) return undefined;
  for (const encoding of offered) if (accepts.includes(encoding) && ACCEPTS[encoding].test(accepts)) return encoding;
  return undefined;
}
const ACCEPTS: Record<Encoding, RegExp> = { br: /\bbr\b/, gzip: /\bgzip\b/ };

/**
 * The body in `encoding`, compressed once. A list's gzip is its runs' deflated parts joined (a stock
 * change compresses the one run it changed); otherwise the fastest settings: 1 MB takes ~0.6 ms at brotli 1
 * (~0.9 ms gzip 1) for ~30x fewer bytes to every reader.
 */
function encodedBody(entry: Serialised, encoding: Encoding): Buffer {
  entry.encoded ??= {};
  return (entry.encoded[encoding] ??=
    encoding === 'gzip' && entry.runs
      ? gzipOfParts(
          listParts(entry.runs, (run) => (run.gzip ??= gzipPart(run.bytes)), OPEN_PART, COMMA_PART, CLOSE_PART),
        )
      : encoding === 'br'
        ? brotliCompressSync(entry.body(), {
            params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: entry.length },
          })
        : gzipSync(entry.body(), { level: 1 }));
}

const etagOf = (text: string | Buffer) => createHash('sha1').update(text).digest('base64url');
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const OPEN_PART = gzipPart(OPEN);
const COMMA_PART = gzipPart(COMMA);
const CLOSE_PART = gzipPart(CLOSE);

/**
 * Elements per run. A list (the catalogue) is serialised in runs of elements, each run once: after one
 * tool's stock changed, the new list serialises, hashes and (for gzip) compresses the one run that holds it
 * (~0.1 ms for 64 tools) and reuses every other run's bytes, where a whole body of 2,000 tools took ~2 ms
 * (bench/before-after.md, 2026-12-07). Shorter runs compress worse (each starts with no history): 64 tools
 * take ~58 kB of gzip for 2,000 against ~40 kB compressed whole.
 */
const RUN_LENGTH = 64;
interface Run {
  items: readonly unknown[];
  /** The elements' JSON joined by commas. */
  bytes: Buffer;
  etag: string;
  gzip?: GzipPart;
}
/** A run by its first element: found again when the same elements follow it. */
const runs = new WeakMap<object, Run>();

function runOf(items: readonly object[]): Run {
  const kept = runs.get(items[0]);
  if (kept && kept.items.length === items.length && kept.items.every((item, i) => item === items[i])) return kept;
  const json = JSON.stringify(items);
  const bytes = Buffer.from(json.slice(1, -1));
  const run = { items, bytes, etag: etagOf(bytes) };
  runs.set(items[0], run);
  return run;
}

/** The list's pieces in order: opening, the runs' with commas between, closing. */
function listParts<T>(list: readonly Run[], of: (run: Run) => T, open: T, comma: T, close: T): T[] {
  const parts = [open];
  list.forEach((run, i) => (i ? parts.push(comma, of(run)) : parts.push(of(run))));
  parts.push(close);
  return parts;
}

function serialise(data: unknown): Serialised {
  const cacheable = typeof data === 'object' && data !== null;
  let entry = cacheable ? serialised.get(data) : undefined;
  if (!entry) {
    if (Array.isArray(data) && data.length && data.every((item) => typeof item === 'object' && item !== null)) {
      const list: Run[] = [];
      for (let i = 0; i < data.length; i += RUN_LENGTH) list.push(runOf(data.slice(i, i + RUN_LENGTH)));
      let body: Buffer | undefined;
      entry = {
        length: list.reduce((sum, run) => sum + run.bytes.length, 1 + list.length),
        etag: `W/"${etagOf(list.map((run) => run.etag).join(','))}"`,
        body: () => (body ??= Buffer.concat(listParts(list, (run) => run.bytes, OPEN, COMMA, CLOSE))),
        offered: GZIP_FIRST,
        runs: list,
      };
    } else {
      const bytes = Buffer.from(JSON.stringify(data));
      entry = { length: bytes.length, etag: `W/"${etagOf(bytes)}"`, body: () => bytes, offered: BROTLI_FIRST };
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
  const { length, etag, offered } = entry;
  const cacheControl = `public, max-age=${maxAgeSeconds}, must-revalidate`;
  const compressible = length >= COMPRESS_FROM_BYTES;
  // The outer server may answer this URL again from memory until the data changes (public-reads.ts).
  const canonical = key ?? (new URL(c.req.url).search ? undefined : c.req.path);
  if (canonical !== undefined) {
    const encoded = compressible ? (encoding: Encoding) => encodedBody(entry, encoding) : undefined;
    c.env?.keep?.({ body: { length, bytes: entry.body }, etag, cacheControl, key: canonical, shows, encoded, offered });
  }
  c.header('ETag', etag);
  c.header('Cache-Control', cacheControl);
  // The weak ETag stands for every encoding of the same JSON (they are equivalent), so a 304 serves any.
  if (compressible) c.header('Vary', 'Accept-Encoding');
  if (c.req.header('if-none-match') === etag) return c.body(null, 304);
  c.header('Content-Type', 'application/json; charset=UTF-8');
  const encoding = compressible ? encodingFor(c.req.header('accept-encoding'), offered) : undefined;
  if (encoding) c.header('Content-Encoding', encoding);
  // Buffer.concat, Buffer.from and zlib allocate plain ArrayBuffers (never shared ones).
  return c.body((encoding ? encodedBody(entry, encoding) : entry.body()) as Uint8Array<ArrayBuffer>);
}
