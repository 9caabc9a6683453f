// Pages that show the store's data (the home page with its reviews, each tool's page, the catalogue's
// pages) are rendered by Astro from the live store and kept here, compressed, until what they show
// changes: a write announces its kind on the change bus (every server hears it, through LISTEN/NOTIFY
// with PostgreSQL), and a copy that shows that kind is not served again. So a review an admin hides or a
// tool deleted leaves every page within moments on every server, while a page is still one write of
// bytes ready in memory, like a prebuilt file. A copy is also dropped after MAX_AGE_MS, a safety net for
// a missed announcement.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { withoutTrailingSlashes } from '../../lib/text.ts';
import type { ChangeBus, Shows } from '../caching/changes.ts';
import { leastRecentlyUsed } from '../caching/cache.ts';
import { inFlight } from '../caching/in-flight.ts';
import { encodingFor } from '../http/cache.ts';
import type { Encoding } from '../types.ts';
import { pagePolicy, withScriptHash } from './page-policy.ts';

const br = promisify(brotliCompress);
const gz = promisify(gzip);

const MAX_AGE_MS = 10_000;
/** Pages kept: one per tool and the home page; past this the least recently used go. */
const MAX_PAGES = 5000;
const MAX_BYTES = 128 * 1024 * 1024;

interface Copy {
  shows: Shows;
  version: number;
  at: number;
  etag: string;
  /** What a 200 carries besides the per-request headers and the encoding. */
  headers: string[];
  notModified: string[];
  br: Buffer;
  gzip: Buffer;
  identity: Buffer;
  used: number;
}

/** One render of a page by Astro, opened before it starts (`LivePages.handoff`). */
export interface LivePageHandoff {
  /**
   * The page as Astro rendered it, handed over by src/middleware.ts: answers this request with it,
   * keeping a compressed copy for the next ones and giving it to requests that waited for this render.
   */
  keep(request: Request, response: Response, shows: Shows): Promise<Response>;
  /** Ends a render that kept nothing (a 404, a page that shows no live data, an error): its waiters render. */
  abandon(): void;
}

export type PageScripts = (html: string) => { html: string; hashes: string[] };

export interface LivePages {
  /** Answers a GET or HEAD from a current copy and returns true; false lets Astro render the page. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string, common: string[]): boolean;
  /**
   * When the kept copy is stale but a render of the page is under way that began after the last change
   * the copy shows, waits for it and answers with its copy (true). So while orders flow a catalogue page
   * is rendered once per change, not once per request that arrives while it renders. False: render it.
   */
  join(req: IncomingMessage, res: ServerResponse, pathname: string, common: string[]): Promise<boolean>;
  /**
   * Made before Astro renders, so a page rendered while a change happened is never kept. `pageScripts`
   * starts the page's scripts after its first paint, as prebuilt pages do (page-scripts.ts), and names
   * the hash of the script it adds. Always ended: kept or abandoned.
   */
  handoff(pathname: string, pageScripts: PageScripts): LivePageHandoff;
  /** Pages kept and their bytes; `compressions`: pages compressed since start (one unchanged since its copy is not). */
  size(): { pages: number; bytes: number; compressions: number };
}

export function livePages({
  changes,
  maxAgeMs = MAX_AGE_MS,
  maxPages = MAX_PAGES,
  maxBytes = MAX_BYTES,
}: {
  changes: Pick<ChangeBus, 'version' | 'versionOf' | 'changedSince'>;
  maxAgeMs?: number;
  maxPages?: number;
  maxBytes?: number;
}): LivePages {
  const copies = new Map<string, Copy>();
  /** Renders under way, which requests that miss a stale copy meanwhile wait for. */
  const rendering = inFlight<Copy>(changes);
  // Pages being compressed, so requests that miss together share one compression (brotli 11 of a
  // page takes tens of milliseconds, on libuv's threads).
  const compressing = new Map<string, Promise<Copy>>();
  let bytesHeld = 0;
  let clock = 0;
  let compressions = 0;

  const drop = (key: string) => {
    const old = copies.get(key);
    if (!old) return;
    bytesHeld -= old.br.length + old.gzip.length + old.identity.length;
    copies.delete(key);
  };
  const leastRecent = () => leastRecentlyUsed(copies);
  const versionOf = (shows: Shows) => changes.versionOf(shows.kinds, shows.tools);
  const current = (copy: Copy | undefined): copy is Copy =>
    copy !== undefined && versionOf(copy.shows) === copy.version && performance.now() - copy.at < maxAgeMs;

  async function compress(
    html: Buffer,
    response: Response,
    scriptHashes: string[],
    { shows, version, at }: Pick<Copy, 'shows' | 'version' | 'at'>,
    previous: Copy | undefined,
  ): Promise<Copy> {
    // The page's own policy (the hashes of its own inline scripts) as the header.
    const given = response.headers.get('content-security-policy');
    const policy = given && scriptHashes.reduce(withScriptHash, given);
    const csp = policy ? ['Content-Security-Policy', pagePolicy(policy, html.toString())] : [];
    // The page's own caching (the catalogue lets browsers reuse it for a few seconds), else revalidate.
    const cache = ['Cache-Control', response.headers.get('cache-control') ?? 'no-cache', 'Vary', 'Accept-Encoding'];
    const made = { shows, version, at, used: ++clock };
    // Made again with the same bytes (its copy got old, or a change it shows did not change it): the
    // compressed bytes are those of the copy before. Brotli 11 of a page takes tens of milliseconds of a
    // core shared with the requests, which waited for it: a tool page every MAX_AGE_MS while orders flowed.
    if (previous && previous.identity.equals(html)) {
      const headers = ['Content-Type', 'text/html; charset=utf-8', ...csp, ...cache, 'ETag', previous.etag];
      if (headers.join('\n') === previous.headers.join('\n')) return { ...previous, ...made };
    }
    // A page that shows stock (the catalogue) may be made again on every order: brotli 5 takes ~1 ms
    // for a page and comes within a few percent of 11, which takes tens of milliseconds.
    const often = shows.kinds.includes('stock');
    const [brotli, gzipped] = await Promise.all([
      br(html, {
        params: { [constants.BROTLI_PARAM_QUALITY]: often ? 5 : 11, [constants.BROTLI_PARAM_SIZE_HINT]: html.length },
      }),
      gz(html, { level: often ? 6 : 9 }),
    ]);
    compressions++;
    const etag = `"${createHash('sha1').update(html).digest('base64url')}"`;
    return {
      ...made,
      etag,
      headers: ['Content-Type', 'text/html; charset=utf-8', ...csp, ...cache, 'ETag', etag],
      notModified: [...csp, ...cache, 'ETag', etag],
      br: brotli,
      gzip: gzipped,
      identity: html,
    };
  }

  function keep(key: string, copy: Copy) {
    const size = copy.br.length + copy.gzip.length + copy.identity.length;
    if (size > maxBytes) return;
    drop(key);
    while (copies.size >= maxPages || bytesHeld + size > maxBytes) drop(leastRecent()!);
    bytesHeld += size;
    copies.set(key, copy);
  }

  function write(req: IncomingMessage, res: ServerResponse, copy: Copy, common: string[]) {
    if (req.headers['if-none-match'] === copy.etag) {
      res.writeHead(304, common.concat(copy.notModified));
      res.end();
      return;
    }
    const { encoding, body } = variant(copy, String(req.headers['accept-encoding'] ?? ''));
    const headers = common.concat(copy.headers, 'Content-Length', String(body.length));
    if (encoding) headers.push('Content-Encoding', encoding);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return {
    serve(req, res, pathname, common) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const copy = copies.get(withoutTrailingSlashes(pathname));
      if (!current(copy)) return false;
      copy.used = ++clock;
      write(req, res, copy, common);
      return true;
    },

    async join(req, res, pathname, common) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const key = withoutTrailingSlashes(pathname);
      const copy = await rendering.wait(key, copies.get(key));
      if (!copy) return false;
      write(req, res, copy, common);
      return true;
    },

    handoff(pathname, pageScripts) {
      const key = withoutTrailingSlashes(pathname);
      const at = performance.now();
      const started = changes.version;
      const end = rendering.begin(key);
      const keepAndAnswer = async (request: Request, response: Response, shows: Shows) => {
        const page = pageScripts(await response.text());
        const html = Buffer.from(page.html);
        // Nothing it shows changed since the render started: the copy is of this version of its data.
        const fresh = !changes.changedSince(started, shows);
        const version = versionOf(shows);
        // One compression per page and version, whoever asks.
        const flight = `${key}\u0000${version}`;
        let pending = fresh ? compressing.get(flight) : undefined;
        if (!pending) {
          pending = compress(html, response, page.hashes, { shows, version, at }, copies.get(key));
          if (fresh) {
            compressing.set(flight, pending);
            void pending.finally(() => compressing.delete(flight)).catch(() => {});
          }
        }
        const copy = await pending;
        // Kept only if nothing it shows changed while it was rendered or compressed (a newer render may be on its way).
        if (fresh && !changes.changedSince(started, shows)) keep(key, copy);
        end(copy);
        const headers = new Headers();
        const fromList = (list: string[]) => {
          for (let i = 0; i < list.length; i += 2) headers.set(list[i], list[i + 1]);
        };
        if (request.headers.get('if-none-match') === copy.etag) {
          fromList(copy.notModified);
          return new Response(null, { status: 304, headers });
        }
        const { encoding, body } = variant(copy, request.headers.get('accept-encoding') ?? '');
        fromList(copy.headers);
        headers.set('Content-Length', String(body.length));
        if (encoding) headers.set('Content-Encoding', encoding);
        return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
      };
      return {
        keep: (request, response, shows) => keepAndAnswer(request, response, shows).finally(() => end(undefined)),
        abandon: () => end(undefined),
      };
    },

    size: () => ({ pages: copies.size, bytes: bytesHeld, compressions }),
  };
}

/** The best encoding of a copy the client accepts. */
function variant(copy: Copy, accepts: string): { encoding?: Encoding; body: Buffer } {
  const encoding = encodingFor(accepts);
  return encoding ? { encoding, body: copy[encoding] } : { body: copy.identity };
}
