// Public API reads (the catalogue, a tool, a page of reviews) answered again from memory by the
// outer server: no Request/Response objects, no routing, one write of bytes ready since the first
// answer. The first read of a URL goes through the API, whose cachedJson hands its answer to the
// keeper made here. A copy is used only while no write changed public data (the change bus's version,
// bumped by a write on this server or, through LISTEN/NOTIFY, on any other sharing the database), and
// for at most a second as a safety net for a missed announcement.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChangeBus } from './changes.ts';
import type { PublicAnswer } from './types.ts';

interface Copy {
  version: number;
  at: number;
  etag: string;
  /** Flat name/value list for writeHead, without the per-request headers. */
  headers: string[];
  body: Buffer;
  /** When it was last used (a counter): the least recent go first past the budget. */
  used: number;
}

export interface PublicReads {
  /**
   * Answers a GET or HEAD from memory and returns true, or returns false to let the API answer.
   * `policy` is the Content-Security-Policy the answer carries besides the per-request headers.
   */
  serve(req: IncomingMessage, res: ServerResponse, perRequestHeaders: string[], policy?: string): boolean;
  /**
   * Made before the API runs, so an answer computed while a write happened is never kept. The copy is
   * kept under the answer's canonical URL (`key`), so URLs that differ only in parameters the API does
   * not read share one copy; an answer without a key is kept only for a URL without a query.
   */
  keeper(url: string): (answer: PublicAnswer) => void;
  /** What the copies hold now. */
  size(): { copies: number; bytes: number };
}

// Copies' bodies in all: a page of 100 reviews is ~30 kB, the catalogue of 10,000 tools a few MB.
const MAX_BYTES = 16 * 1024 * 1024;

export function publicReads({
  changes,
  maxAgeMs = 1000,
  maxCopies = 1000,
  maxBytes = MAX_BYTES,
}: {
  changes: Pick<ChangeBus, 'version'>;
  maxAgeMs?: number;
  maxCopies?: number;
  maxBytes?: number;
}): PublicReads {
  // A hit only stamps its copy (moving it in the map cost two hash updates a request); the least recently
  // used is searched for when a new copy passes the budget, which only a miss does.
  const copies = new Map<string, Copy>();
  let bytesHeld = 0;
  let clock = 0;
  const leastRecent = () => {
    let oldest: string | undefined;
    let stamp = Infinity;
    for (const [key, copy] of copies)
      if (copy.used < stamp) {
        stamp = copy.used;
        oldest = key;
      }
    return oldest;
  };
  const drop = (key: string) => {
    const old = copies.get(key);
    if (!old) return;
    bytesHeld -= old.body.length;
    copies.delete(key);
  };

  return {
    serve(req, res, perRequestHeaders, policy) {
      const copy = copies.get(req.url!);
      if (!copy || copy.version !== changes.version || performance.now() - copy.at > maxAgeMs) return false;
      copy.used = ++clock;
      const head = policy ? perRequestHeaders.concat('Content-Security-Policy', policy) : perRequestHeaders;
      if (req.headers['if-none-match'] === copy.etag) {
        res.writeHead(304, head.concat('ETag', copy.etag));
        res.end();
      } else {
        res.writeHead(200, head.concat(copy.headers));
        res.end(req.method === 'HEAD' ? undefined : copy.body);
      }
      return true;
    },
    keeper(url) {
      const version = changes.version;
      const at = performance.now();
      return ({ body, etag, cacheControl, key: canonical }) => {
        const key = canonical ?? (url.includes('?') ? undefined : url);
        if (key === undefined || version !== changes.version) return;
        const bytes = Buffer.from(body);
        if (bytes.length > maxBytes) return;
        drop(key);
        while (copies.size >= maxCopies || bytesHeld + bytes.length > maxBytes) drop(leastRecent()!);
        bytesHeld += bytes.length;
        copies.set(key, {
          used: ++clock,
          version,
          at,
          etag,
          body: bytes,
          headers: [
            'Content-Type',
            'application/json; charset=UTF-8',
            'Content-Length',
            String(bytes.length),
            'ETag',
            etag,
            'Cache-Control',
            cacheControl,
          ],
        });
      };
    },
    size: () => ({ copies: copies.size, bytes: bytesHeld }),
  };
}
