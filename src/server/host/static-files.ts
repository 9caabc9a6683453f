// Serves the prebuilt site (dist/client): precompressed variants, immutable hashed assets,
// ETag revalidation for everything else. Pure node:fs, no framework: this is the hot path.
import { createReadStream, existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { withoutTrailingSlashes } from '../../lib/text.ts';
import { pagePolicy } from './page-policy.ts';

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

/** One encoding of a file: its size, and its bytes once read (small files are kept in memory). */
interface Variant {
  encoding?: 'br' | 'gzip';
  file: string;
  size: number;
  body?: Buffer;
  /** Everything this variant's 200 carries but the per-request headers, as a flat name/value list. */
  headers: string[];
}

/** Everything about a prebuilt file that does not change per request, worked out on first request. */
interface Entry {
  /** What a 304 carries besides the per-request headers. */
  notModified: string[];
  etag: string;
  /** Best first: br, gzip, then the file itself. */
  variants: Variant[];
}

/** Files up to this size are served from memory, up to MEMORY_BUDGET in all (least recently used dropped). */
const MAX_CACHED_FILE = 1024 * 1024;
const MEMORY_BUDGET = 64 * 1024 * 1024;

export interface StaticSite {
  /**
   * Serves the request when a prebuilt file matches, with `common` (request id, security headers)
   * written first; returns false to let the app answer. A page's own CSP replaces `defaultCsp`.
   */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string, common: string[]): boolean;
  /** Answers with status 404 and the prebuilt 404 page, precompressed. */
  notFound(req: IncomingMessage, res: ServerResponse, common: string[]): void;
  /** The headers a prebuilt page goes out with (its CSP with the hashes of its own inline scripts). */
  pageHeaders(pathname: string): Record<string, string> | undefined;
  /** What the caches hold: files looked up, URL paths naming them, paths of no file, bytes of files in memory. */
  cacheSize(): { files: number; spellings: number; misses: number; bytes: number };
}

/** Paths of no file remembered (least recently asked dropped): any path can be asked, files are few. */
const MAX_MISSES = 1000;
const MAX_SPELLINGS = 10_000;

// The build does not change dist/client under a running server, so each file is looked up (stat,
// variants, ETag, headers) once, and small files are read once: the hot path does no I/O.
export function staticSite(clientDir: string, headersFile: string, defaultCsp: string): StaticSite {
  const root = path.resolve(clientDir);
  const pageHeaders = loadPageHeaders(headersFile);
  // Keyed by the file path the URL resolves to, so one file under many spellings (//x, /a/./x) is one entry.
  const entries = new Map<string, Entry>();
  const misses = new Set<string>();
  // The hot path: an entry by the pathname as asked, without resolving it. Only spellings of existing
  // files get here, and at most MAX_SPELLINGS of them (cleared past that): a key and a shared pointer each.
  const spellings = new Map<string, Entry>();
  const inMemory = new Set<Variant>();
  let memoryUsed = 0;

  /** The site path a request resolves to ('/', '/tools/a', '/_astro/x.js'), or null outside the site. */
  function resolve(pathname: string): string | null {
    const base = path.resolve(root, '.' + pathname);
    if (base !== root && !base.startsWith(root + path.sep)) return null;
    return '/' + path.relative(root, base).split(path.sep).join('/');
  }

  function lookup(sitePath: string): Entry | null {
    const base = path.join(root, sitePath);
    for (const file of [base, path.join(base, 'index.html'), base + '.html']) {
      const stat = statOrNull(file);
      if (!stat?.isFile()) continue;
      const ext = path.extname(file);
      const immutable = sitePath.startsWith('/_astro/');
      const headers: [string, string][] = [
        ['Content-Type', TYPES[ext] ?? 'application/octet-stream'],
        [
          'Cache-Control',
          immutable ? 'public, max-age=31536000, immutable' : ext === '.html' ? 'no-cache' : 'public, max-age=3600',
        ],
      ];
      const own = ext === '.html' ? ownHeaders(pageHeaders.get(normalise(sitePath)), file) : {};
      // A document's policy means nothing on a script or a stylesheet (the page's applies to them):
      // left off the hashed ones, ~330 bytes of the ~40 a dashboard load fetches.
      if (!isSubresource(sitePath, ext)) headers.push(['Content-Security-Policy', defaultCsp]);
      headers.push(...Object.entries(own));
      const variants: Variant[] = [];
      if (COMPRESSIBLE.has(ext)) {
        headers.push(['Vary', 'Accept-Encoding']);
        for (const [encoding, suffix] of [
          ['br', '.br'],
          ['gzip', '.gz'],
        ] as const) {
          const variant = statOrNull(file + suffix);
          if (variant?.isFile()) variants.push({ encoding, file: file + suffix, size: variant.size, headers: [] });
        }
      }
      variants.push({ file, size: stat.size, headers: [] });
      // One header of each name: the page's own CSP replaces the default one.
      const flat = [...new Map(headers)].flat();
      const etag = `"${stat.size.toString(36)}-${stat.mtimeMs.toString(36)}"`;
      for (const v of variants)
        v.headers = [
          ...flat,
          'ETag',
          etag,
          ...(v.encoding ? ['Content-Encoding', v.encoding] : []),
          'Content-Length',
          String(v.size),
        ];
      return { notModified: [...flat, 'ETag', etag], etag, variants };
    }
    return null;
  }

  function send(req: IncomingMessage, res: ServerResponse, status: number, entry: Entry, common: string[]) {
    const accept = entry.variants.length > 1 ? String(req.headers['accept-encoding'] ?? '') : '';
    const variant = entry.variants.find((v) => !v.encoding || accept.includes(v.encoding))!;
    res.writeHead(status, common.concat(variant.headers));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const bytes = body(variant);
    if (bytes) res.end(bytes);
    else createReadStream(variant.file).pipe(res);
  }

  function find(pathname: string): Entry | null {
    const spelled = spellings.get(pathname);
    if (spelled) return spelled;
    const entry = findResolved(pathname);
    if (entry) {
      if (spellings.size >= MAX_SPELLINGS) spellings.clear();
      spellings.set(pathname, entry);
    }
    return entry;
  }

  function findResolved(pathname: string): Entry | null {
    const sitePath = resolve(pathname);
    if (sitePath === null) return null;
    const known = entries.get(sitePath);
    if (known) return known;
    if (misses.has(sitePath)) {
      misses.delete(sitePath);
      misses.add(sitePath);
      return null;
    }
    const entry = lookup(sitePath);
    if (entry) entries.set(sitePath, entry);
    else {
      misses.add(sitePath);
      if (misses.size > MAX_MISSES) misses.delete(misses.values().next().value!);
    }
    return entry;
  }

  /** The variant's bytes from memory, reading them on first use; undefined for files too big to keep. */
  function body(variant: Variant): Buffer | undefined {
    if (variant.body) {
      inMemory.delete(variant);
      inMemory.add(variant);
      return variant.body;
    }
    if (variant.size > MAX_CACHED_FILE) return undefined;
    variant.body = readFileSync(variant.file);
    memoryUsed += variant.body.length;
    inMemory.add(variant);
    for (const old of inMemory) {
      if (memoryUsed <= MEMORY_BUDGET) break;
      memoryUsed -= old.body!.length;
      old.body = undefined;
      inMemory.delete(old);
    }
    return variant.body;
  }

  return {
    pageHeaders(pathname) {
      const entry = find(pathname);
      if (!entry) return undefined;
      const flat = entry.notModified;
      return Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]));
    },
    cacheSize: () => ({ files: entries.size, spellings: spellings.size, misses: misses.size, bytes: memoryUsed }),
    serve(req, res, pathname, common) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const entry = find(pathname);
      if (!entry) return false;
      if (req.headers['if-none-match'] === entry.etag) {
        res.writeHead(304, common.concat(entry.notModified));
        res.end();
        return true;
      }
      send(req, res, 200, entry, common);
      return true;
    },
    notFound(req, res, common) {
      const entry = find('/404');
      if (entry) return send(req, res, 404, entry, common);
      res.writeHead(404, common.concat('Content-Type', 'text/plain; charset=utf-8'));
      res.end('Not Found');
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

const normalise = withoutTrailingSlashes;

function loadPageHeaders(file: string): Map<string, Record<string, string>> {
  const map = new Map<string, Record<string, string>>();
  if (!existsSync(file)) return map;
  const entries = JSON.parse(readFileSync(file, 'utf8')) as {
    pathname: string;
    headers: { key: string; value: string }[];
  }[];
  for (const entry of entries) {
    map.set(normalise(entry.pathname), Object.fromEntries(entry.headers.map((h) => [h.key, h.value])));
  }
  return map;
}

/** A prebuilt page's own headers, its policy narrowed to its own hashes (read once per file). */
function ownHeaders(headers: Record<string, string> | undefined, file: string): Record<string, string> {
  const policy = headers?.['Content-Security-Policy'];
  if (!policy) return headers ?? {};
  return { ...headers, 'Content-Security-Policy': pagePolicy(policy, readFileSync(file, 'utf8')) };
}

/** A hashed script or stylesheet: fetched by a page, never opened as a document. */
export const isSubresource = (sitePath: string, ext = path.extname(sitePath)) =>
  sitePath.startsWith('/_astro/') && (ext === '.js' || ext === '.mjs' || ext === '.css');
