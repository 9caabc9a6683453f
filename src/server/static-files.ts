// Serves the prebuilt site (dist/client): precompressed variants, immutable hashed assets,
// ETag revalidation for everything else. Pure node:fs, no framework: this is the hot path.
import { createReadStream, existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.webmanifest']);

interface Found {
  file: string;
  stat: Stats;
  ext: string;
}

export interface StaticSite {
  /** Serves the request when a prebuilt file matches; returns false to let the app answer. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  /** Per-page headers Astro wrote at build time (the page's CSP with its script hashes). */
  pageHeaders(pathname: string): Record<string, string> | undefined;
}

export function staticSite(clientDir: string, headersFile: string): StaticSite {
  const root = path.resolve(clientDir);
  const pageHeaders = loadPageHeaders(headersFile);
  const statCache = new Map<string, Found | null>();

  function find(pathname: string): Found | null {
    if (statCache.has(pathname)) return statCache.get(pathname)!;
    let found: Found | null = null;
    const base = path.resolve(root, '.' + pathname);
    if (base === root || base.startsWith(root + path.sep)) {
      for (const candidate of [base, path.join(base, 'index.html'), base + '.html']) {
        const stat = statOrNull(candidate);
        if (stat?.isFile()) {
          found = { file: candidate, stat, ext: path.extname(candidate) };
          break;
        }
      }
    }
    if (statCache.size > 50_000) statCache.clear();
    statCache.set(pathname, found);
    return found;
  }

  return {
    pageHeaders: (pathname) => pageHeaders.get(normalise(pathname)),
    serve(req, res, pathname) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const found = find(pathname);
      if (!found) return false;
      const etag = `"${found.stat.size.toString(36)}-${found.stat.mtimeMs.toString(36)}"`;
      const immutable = pathname.startsWith('/_astro/');
      res.setHeader('Content-Type', TYPES[found.ext] ?? 'application/octet-stream');
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : found.ext === '.html' ? 'no-cache' : 'public, max-age=3600');
      res.setHeader('ETag', etag);
      if (found.ext === '.html') {
        for (const [key, value] of Object.entries(pageHeaders.get(normalise(pathname)) ?? {})) res.setHeader(key, value);
      }
      if (req.headers['if-none-match'] === etag) {
        res.statusCode = 304;
        res.end();
        return true;
      }
      let file = found.file;
      let size = found.stat.size;
      if (COMPRESSIBLE.has(found.ext)) {
        res.setHeader('Vary', 'Accept-Encoding');
        const accept = String(req.headers['accept-encoding'] ?? '');
        for (const [encoding, suffix] of [
          ['br', '.br'],
          ['gzip', '.gz'],
        ] as const) {
          if (!accept.includes(encoding)) continue;
          const variant = statOrNull(file + suffix);
          if (variant) {
            res.setHeader('Content-Encoding', encoding);
            file += suffix;
            size = variant.size;
            break;
          }
        }
      }
      res.setHeader('Content-Length', size);
      res.statusCode = 200;
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
      return true;
    },
  };
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

const normalise = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

function loadPageHeaders(file: string): Map<string, Record<string, string>> {
  const map = new Map<string, Record<string, string>>();
  if (!existsSync(file)) return map;
  const entries = JSON.parse(readFileSync(file, 'utf8')) as { pathname: string; headers: { key: string; value: string }[] }[];
  for (const entry of entries) {
    const headers = Object.fromEntries(entry.headers.map((h) => [h.key, h.value]));
    // A <meta> policy cannot forbid framing; the header one can.
    if (headers['Content-Security-Policy']) headers['Content-Security-Policy'] += " frame-ancestors 'none';";
    map.set(normalise(entry.pathname), headers);
  }
  return map;
}
