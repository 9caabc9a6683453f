// Public API reads (the catalogue, a tool, a page of reviews) answered again from memory by the
// outer server: no Request/Response objects, no routing, one write of bytes ready since the first
// answer. The first read of a URL goes through the API, whose cachedJson hands its answer to the
// keeper made here. A copy is used only while no write changed public data (the change bus's version,
// bumped by a write on this server or, through LISTEN/NOTIFY, on any other sharing the database), and
// for at most a second as a safety net for a missed announcement. A large body (the whole catalogue) goes
// in gzip or brotli to a client that accepts it (http/cache.ts), compressed once per copy.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChangeBus, Shows } from '../caching/changes.ts';
import type { Encoding, LazyBytes, PublicAnswer } from '../types.ts';
import { encodingFor } from '../http/cache.ts';
import { leastRecentlyUsed } from '../caching/cache.ts';
import { ANYTHING, inFlight } from '../caching/in-flight.ts';

interface Copy {
  /** What it shows (none: everything), and the bus's count of changes to that when it was made. */
  shows?: Shows;
  version: number;
  at: number;
  etag: string;
  /** What a 304 carries besides the per-request headers. */
  notModified: string[];
  /** The headers every 200 carries but the per-request ones, the encoding and the length. */
  base: string[];
  /** The body as the API made it (JSON's UTF-8 bytes; a long list's are joined when first sent). */
  body: Buffer | LazyBytes;
  identity?: Variant;
  /** For a body worth compressing (http/cache.ts): its bytes in an encoding, kept below once asked for. */
  encoded?: (encoding: Encoding) => Buffer;
  /** The encodings `encoded` makes, the one to prefer first. */
  offered?: readonly Encoding[];
  variants: Partial<Record<Encoding, Variant>>;
  bytes: number;
  /** When it was last used (a counter): the least recent go first past the budget. */
  used: number;
}

/** A body as sent in one encoding, with its flat name/value header list for writeHead. */
interface Variant {
  headers: string[];
  /**
   * A small body: the bytes as a one-byte (latin1) string, which Node writes in the same write(2) as the
   * headers, where a Buffer body takes a second, gathered write (~8% of a small read's cost). A larger one
   * stays bytes: Node copies a string into a buffer of its own on every answer, which costs more than the
   * second write from ~8 kB on (17% of the server's time under GET /api/tools of 2,000 tools, uncompressed).
   */
  body: string | Buffer;
}

export interface PublicReads {
  /**
   * Answers a GET or HEAD from memory and returns true, or returns false to let the API answer.
   */
  serve(req: IncomingMessage, res: ServerResponse, perRequestHeaders: string[]): boolean;
  /**
   * When this URL's copy is stale but the API is answering it already, from data read after the last
   * change the copy shows, waits for that answer and writes it too (true). So while orders flow the
   * catalogue is answered by the API once per change, not once per read that arrives meanwhile.
   */
  join(req: IncomingMessage, res: ServerResponse, perRequestHeaders: string[]): Promise<boolean>;
  /**
   * Made before the API runs, so an answer computed while a write happened is never kept. The copy is
   * kept under the answer's canonical URL (`key`), so URLs that differ only in parameters the API does
   * not read share one copy; an answer without a key is kept only for a URL without a query. Always
   * ended: `abandon()` once the API has answered, kept or not.
   */
  keeper(url: string): Keeper;
  /** What the copies hold now. */
  size(): { copies: number; bytes: number };
}

/** Takes the API's answer to one read (cachedJson calls it) and ends that read for those waiting on it. */
export type Keeper = ((answer: PublicAnswer) => void) & { abandon(): void };

/**
 * Bodies up to this size are written with their headers in one write(2) (see Variant.body). Measured by
 * scripts/bench/write-modes.ts: a string is 7-8% faster up to 4 kB, a Buffer 4% faster at 8 kB and 36% at
 * 35 kB (a compressed catalogue of 2,000 tools).
 */
const ONE_WRITE_BYTES = 6 * 1024;
// Copies' bodies in all: a page of 100 reviews is ~30 kB, the catalogue of 10,000 tools a few MB (its
// compressed variants, a small fraction of that, are not counted).
const MAX_BYTES = 16 * 1024 * 1024;

export function publicReads({
  changes,
  policy,
  maxAgeMs = 1000,
  maxCopies = 1000,
  maxBytes = MAX_BYTES,
}: {
  changes: Pick<ChangeBus, 'version' | 'versionOf' | 'changedSince'>;
  /** The Content-Security-Policy every answer carries. */
  policy?: string;
  maxAgeMs?: number;
  maxCopies?: number;
  maxBytes?: number;
}): PublicReads {
  const versionOf = (shows: Shows | undefined) =>
    shows ? changes.versionOf(shows.kinds, shows.tools) : changes.version;
  // A hit only stamps its copy (moving it in the map cost two hash updates a request); the least recently
  // used is searched for when a new copy passes the budget, which only a miss does.
  const copies = new Map<string, Copy>();
  /** Reads the API is answering, which reads that miss a stale copy meanwhile wait for. */
  const answering = inFlight<Copy>(changes);
  let bytesHeld = 0;
  let clock = 0;
  const leastRecent = () => leastRecentlyUsed(copies);
  const drop = (key: string) => {
    const old = copies.get(key);
    if (!old) return;
    bytesHeld -= old.bytes;
    copies.delete(key);
  };

  return {
    serve(req, res, perRequestHeaders) {
      const copy = copies.get(req.url!);
      if (!copy || copy.version !== versionOf(copy.shows) || performance.now() - copy.at > maxAgeMs) return false;
      copy.used = ++clock;
      write(req, res, perRequestHeaders, copy);
      return true;
    },
    async join(req, res, perRequestHeaders) {
      const copy = await answering.wait(req.url!, copies.get(req.url!));
      if (!copy) return false;
      write(req, res, perRequestHeaders, copy);
      return true;
    },
    keeper(url) {
      const version = changes.version;
      const at = performance.now();
      const end = answering.begin(url);
      const keep = ({ body, etag, cacheControl, key: canonical, shows, encoded, offered }: PublicAnswer) => {
        const key = canonical ?? (url.includes('?') ? undefined : url);
        if (key === undefined) return end(undefined);
        const bytes = typeof body === 'string' ? Buffer.from(body) : body;
        if (bytes.length > maxBytes) return end(undefined);
        const copy = copyOf(bytes, etag, cacheControl, shows, at, encoded, offered);
        // Nothing it shows changed while it was computed, so it is current.
        if (!changes.changedSince(version, shows ?? ANYTHING)) {
          drop(key);
          while (copies.size >= maxCopies || bytesHeld + bytes.length > maxBytes) drop(leastRecent()!);
          bytesHeld += bytes.length;
          copies.set(key, copy);
        }
        end(copy);
      };
      return Object.assign(keep, { abandon: () => end(undefined) });
    },
    size: () => ({ copies: copies.size, bytes: bytesHeld }),
  };

  function copyOf(
    bytes: Buffer | LazyBytes,
    etag: string,
    cacheControl: string,
    shows: Shows | undefined,
    at: number,
    encoded: PublicAnswer['encoded'],
    offered: PublicAnswer['offered'],
  ): Copy {
    const csp = policy ? ['Content-Security-Policy', policy] : [];
    // An answer sent in several encodings says so, for caches between us and the client.
    const vary = encoded ? ['Vary', 'Accept-Encoding'] : [];
    const base = [
      ...csp,
      'Content-Type',
      'application/json; charset=UTF-8',
      'ETag',
      etag,
      'Cache-Control',
      cacheControl,
      ...vary,
    ];
    return {
      used: ++clock,
      shows,
      version: versionOf(shows),
      at,
      etag,
      base,
      body: bytes,
      encoded,
      offered,
      variants: {},
      bytes: bytes.length,
      notModified: [...csp, 'ETag', etag, ...vary],
    };
  }
}

function variant(base: string[], bytes: Buffer, encoding?: Encoding): Variant {
  return {
    headers: [...base, ...(encoding ? ['Content-Encoding', encoding] : []), 'Content-Length', String(bytes.length)],
    body: bytes.length <= ONE_WRITE_BYTES ? bytes.toString('latin1') : bytes,
  };
}

/** The copy's body in the encoding the request accepts, if it is sent compressed at all. */
function variantFor(req: IncomingMessage, copy: Copy): Variant {
  const encoding = copy.encoded && encodingFor(req.headers['accept-encoding'], copy.offered);
  if (!encoding)
    return (copy.identity ??= variant(copy.base, Buffer.isBuffer(copy.body) ? copy.body : copy.body.bytes()));
  return (copy.variants[encoding] ??= variant(copy.base, copy.encoded!(encoding), encoding));
}

function write(req: IncomingMessage, res: ServerResponse, perRequestHeaders: string[], copy: Copy) {
  if (req.headers['if-none-match'] === copy.etag) {
    res.writeHead(304, perRequestHeaders.concat(copy.notModified));
    res.end();
    return;
  }
  const { headers, body } = variantFor(req, copy);
  res.writeHead(200, perRequestHeaders.concat(headers));
  if (req.method === 'HEAD') res.end();
  else if (typeof body === 'string') res.end(body, 'latin1');
  else res.end(body);
}
