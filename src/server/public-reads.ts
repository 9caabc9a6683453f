// Public API reads (the catalogue, a tool, a page of reviews) answered again from memory by the
// outer server: no Request/Response objects, no routing, one write of bytes ready since the first
// answer. The first read of a URL goes through the API, whose cachedJson hands its answer to the
// keeper made here. A copy is used only while no write changed public data in this process
// (runtime.publicVersion) and for at most a second, so writes by other servers sharing one
// PostgreSQL, which the API's own caches pick up within 5 s, show no later than before.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runtime, type PublicAnswer } from './runtime.ts';

interface Copy {
  version: number;
  at: number;
  etag: string;
  /** Flat name/value list for writeHead, without the per-request headers. */
  headers: string[];
  body: Buffer;
}

export interface PublicReads {
  /** Answers a GET or HEAD from memory and returns true, or returns false to let the API answer. */
  serve(req: IncomingMessage, res: ServerResponse, perRequestHeaders: string[]): boolean;
  /** Made before the API runs, so an answer computed while a write happened is never kept. */
  keeper(url: string): (answer: PublicAnswer) => void;
}

export function publicReads({ maxAgeMs = 1000, maxCopies = 1000 } = {}): PublicReads {
  const copies = new Map<string, Copy>();

  return {
    serve(req, res, perRequestHeaders) {
      const copy = copies.get(req.url!);
      if (!copy || copy.version !== runtime.publicVersion || performance.now() - copy.at > maxAgeMs) return false;
      if (req.headers['if-none-match'] === copy.etag) {
        res.writeHead(304, [...perRequestHeaders, 'ETag', copy.etag]);
        res.end();
      } else {
        res.writeHead(200, [...perRequestHeaders, ...copy.headers]);
        res.end(req.method === 'HEAD' ? undefined : copy.body);
      }
      return true;
    },
    keeper(url) {
      const version = runtime.publicVersion;
      const at = performance.now();
      return ({ body, etag, cacheControl }) => {
        if (version !== runtime.publicVersion) return;
        if (copies.size >= maxCopies) copies.clear();
        const bytes = Buffer.from(body);
        copies.set(url, {
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
  };
}
