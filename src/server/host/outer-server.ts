// The outer server's request handling: every request, in this order. Its target is read once
// (http/paths.ts: one canonical spelling, or a redirect, or a refusal), then a public read is answered
// from memory, a prebuilt file from disk, /api by the Hono app, and any other page by Astro with the
// runtime in `locals`. Every response gets the security headers, every line of log the request id.
// main.ts builds it once and owns the process (listening, opening the runtime, shutting down); tests build
// it in-process with a test runtime and a stand-in for Astro.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { baseCsp } from '../../lib/csp.mjs';
import { SEARCH_BASE_PATH } from '../../lib/search.ts';
import type { Config } from '../config.ts';
import { clientAddress, forwardedHttps } from '../http/client-address.ts';
import { allowedOrigin } from '../http/origin.ts';
import { requestTarget, type Target } from '../http/paths.ts';
import { accessLine, logger as log, logOut, requestIdFrom, withRequestId } from '../observability/logger.ts';
import { metrics, observeRequest } from '../observability/metrics.ts';
import { serveMetricsWithToken } from '../observability/metrics-server.ts';
import { changesOf } from '../caching/changes.ts';
import { livePages, type LivePages, type PageScripts } from './live-pages.ts';
import { pageScriptsAfterPaint } from './page-scripts.ts';
import { isWarmUp } from './warm-up.ts';
import { otherBuilds } from '../builds/other-builds.ts';
import {
  answerStarting,
  hsts,
  securityHeaders,
  sendJson,
  subresourceHeaders,
  writeOtherSpelling,
} from './plain-answers.ts';
import { publicReads } from './public-reads.ts';
import { isSubresource, staticSite, type StaticSite } from './static-files.ts';
import type { RequestSpan } from '../observability/otel.ts';
import { routeTemplate, tracer } from '../observability/tracing.ts';
import type { Runtime } from '../runtime.ts';

/** Astro's request handler (dist/server/entry.mjs in middleware mode). */
export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (() => void) | undefined,
  locals: App.Locals,
) => Promise<void>;

/**
 * Names the running request's span by the API route that answers it. A request's span is passed along as an
 * argument, not kept on Node's request object: a property added to every request after Node built it cost
 * ~3% of a public read's rate with tracing on (the two measured side by side, bench/before-after.md).
 */
const nameRoute = (template: string) => tracer?.activeRequest()?.route(routeTemplate(template));

export interface OuterServerOptions {
  config: Config;
  /** The build: `client/` (the prebuilt site) and `_headers.json` (each page's own CSP). */
  dist: string;
  astro: AstroHandler;
  /** The build's name, shown by /api/health. */
  buildId?: string;
  /** Where the builds are (src/server/builds/site-builds.ts): assets of a build being switched in are served from there. */
  buildsDir?: string;
  /** The runtime once its database is open; until then /api answers 503 and /api/health says alive. */
  runtime: () => Runtime | undefined;
  env?: Record<string, string | undefined>;
}

interface Pending {
  started: number;
  headers: string[];
  read: boolean;
  isApi: boolean;
  pathname: string;
  /** The request's span when it is traced. */
  span: RequestSpan | undefined;
}

/** Everything that comes from one build: its files, its Astro handler, the pages it rendered. */
interface Build {
  id: string;
  site: StaticSite;
  astro: AstroHandler;
  /** The 404 page's policy (hashed scripts), for what Astro answers without a policy of its own. */
  notFoundCsp: string;
  pages: LivePages;
  pageScripts: PageScripts;
}

export function outerServer({
  config,
  dist,
  astro,
  buildId = 'dist',
  buildsDir,
  runtime,
  env = process.env,
}: OuterServerOptions) {
  // The header policy every response carries; prebuilt pages replace it with theirs (with script hashes).
  const csp = baseCsp(env);
  const changes = changesOf(() => runtime()?.changes);
  const reads = publicReads({ policy: csp, changes });

  function load(id: string, dir: string, handler: AstroHandler): Build {
    const site = staticSite(path.join(dir, 'client'), path.join(dir, '_headers.json'), csp);
    const pageScripts = pageScriptsAfterPaint(path.join(dir, 'client'));
    return {
      id,
      site,
      astro: handler,
      notFoundCsp: site.pageHeaders('/404')?.['Content-Security-Policy'] ?? csp,
      // Pages rendered by one build link its assets: a new build renders them again.
      pages: livePages({ changes }),
      pageScripts,
    };
  }
  let build = load(buildId, dist, astro);
  const others = otherBuilds({ buildsDir, csp, served: buildId });

  /** The request id and the security headers but the CSP (HSTS over https); a hashed script only nosniff of them. */
  function commonHeaders(req: IncomingMessage, requestId: string, pathname = ''): string[] {
    const common = ['X-Request-Id', requestId, ...(isSubresource(pathname) ? subresourceHeaders : securityHeaders)];
    return forwardedHttps(req, config.trustProxy) ? [...common, ...hsts] : common;
  }

  // The API answers through @hono/node-server, like any Hono server on Node (it swaps in its lighter
  // global Request/Response: a JSON answer is written straight to the socket, not through a web stream).
  const api = getRequestListener((request, bindings) => {
    const { incoming } = bindings as HttpBindings;
    const keep = incoming.method === 'GET' || incoming.method === 'HEAD' ? reads.keeper(incoming.url!) : undefined;
    const answer = runtime()!.app.fetch(request, {
      clientAddress: clientAddress(incoming, config.trustProxy),
      keep,
      route: tracer && nameRoute,
    });
    return keep ? Promise.resolve(answer).finally(keep.abandon) : answer;
  });

  const logRequests = log.isLevelEnabled('info');
  /** The access log line and the request metrics, written by hand: this runs per request. */
  function finished(req: IncomingMessage, status: number, requestId: string, started: number, span?: RequestSpan) {
    if (isWarmUp(req)) return;
    const seconds = (performance.now() - started) / 1000;
    const url = req.url ?? '/';
    observeRequest(req.method, url, status, seconds);
    span?.end(status);
    if (!logRequests) return;
    logOut.write(
      accessLine(
        requestId,
        clientAddress(req, config.trustProxy),
        req.method!,
        url,
        status,
        Math.round(seconds * 1000),
        span?.traceId,
      ),
    );
  }

  /** A request target that is not in its one canonical spelling: a read goes there, anything else is refused. */
  function answerOtherSpelling(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    target: Exclude<Target, { kind: 'ok' }>,
    span: RequestSpan | undefined,
  ) {
    const started = performance.now();
    writeOtherSpelling(req, res, commonHeaders(req, requestId), target);
    finished(req, res.statusCode, requestId, started, span);
  }

  /**
   * The hot paths: a public API read from memory, a prebuilt file. Each writes every header at once and
   * logs only its access line (which carries the request id itself), so they run outside the request-id
   * context. Returns what the rest of the handling needs when neither answered.
   */
  function serveFast(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    pathname: string,
    span: RequestSpan | undefined,
  ): Pending | undefined {
    const started = performance.now();
    const headers = commonHeaders(req, requestId, pathname);
    const read = req.method === 'GET' || req.method === 'HEAD';
    const isApi = pathname.startsWith('/api/');
    if (read && isApi) {
      if (reads.serve(req, res, headers)) {
        metrics.cacheHit();
        finished(req, res.statusCode, requestId, started, span);
        return undefined;
      }
      metrics.cacheMiss();
    }
    if (!isApi && build.pages.serve(req, res, pathname, headers)) {
      finished(req, res.statusCode, requestId, started, span);
      return undefined;
    }
    // The search index is the live one (src/pages/pagefind) once the runtime is open, the build's before.
    const liveSearch = runtime() !== undefined && pathname.startsWith(SEARCH_BASE_PATH);
    if (
      !isApi &&
      !liveSearch &&
      (build.site.serve(req, res, pathname, headers) || others.serve(req, res, pathname, headers))
    ) {
      finished(req, res.statusCode, requestId, started, span);
      return undefined;
    }
    return { started, headers, read, isApi, pathname, span };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string, pending: Pending) {
    const { started, headers, read, isApi, pathname, span } = pending;
    res.on('finish', () => finished(req, res.statusCode, requestId, started, span));
    // A request whose client went away before its answer still ends its span.
    if (span) res.once('close', () => span.end(res.statusCode));
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
    res.setHeader('Content-Security-Policy', csp);
    if (pathname === '/metrics' && serveMetricsWithToken(req, res, config.metrics.token)) return;
    // Alive whether or not the runtime is open, with the build this server serves (a deploy checks it).
    if (pathname === '/api/health') return sendJson(res, 200, { ok: true, build: build.id });
    const current = runtime();
    if (isApi) {
      if (!current) return answerStarting(res, pathname);
      // A browser on another site cannot make a signed-in user's browser write here (our calls carry a
      // bearer token, so this is defence in depth; behind a TLS proxy the public origin is PUBLIC_SITE_URL).
      if (!read && !allowedOrigin(req, config)) {
        return sendJson(res, 403, { error: { code: 'forbidden', message: 'Cross-site requests are not allowed' } });
      }
      // A read whose copy went stale while the API answers it anew: that answer answers this one too.
      return (read && (await reads.join(req, res, []))) || api(req, res);
    }
    if (!current) return answerStarting(res, pathname);
    // One build answers the whole request, even if another is switched in meanwhile.
    const { astro, notFoundCsp, pages, pageScripts } = build;
    // A kept page gone stale whose new copy is being rendered: the copy answers this request too.
    if (read && (await pages.join(req, res, pathname, []))) return;
    res.setHeader('Content-Security-Policy', notFoundCsp);
    // A path no page matches: the prebuilt 404 page, precompressed (Astro's own is ~44 kB uncompressed).
    // A page that shows live data hands its rendering back to be kept (live-pages.ts, src/middleware.ts).
    const livePage = read ? pages.handoff(pathname, pageScripts) : undefined;
    try {
      await astro(req, res, () => build.site.notFound(req, res, []), { runtime: current, livePage });
    } finally {
      livePage?.abandon();
    }
  }

  function failed(res: ServerResponse, error: Error) {
    log.error({ err: error }, 'unhandled request error');
    if (!res.headersSent)
      sendJson(res, 500, {
        error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' },
      });
    else res.destroy();
  }

  return {
    get buildId() {
      return build.id;
    },
    /**
     * Serves another build from the next request on. Requests already running finish on the one they
     * started with; its hashed assets stay served for `graceMs` for pages opened before the switch.
     */
    switchBuild(next: { id: string; dir: string; astro: AstroHandler }, graceMs: number) {
      const loaded = load(next.id, next.dir, next.astro);
      others.switched(next.id, build, graceMs);
      build = loaded;
    },
    listener: answer,
  };

  function answer(req: IncomingMessage, res: ServerResponse) {
    // A traced request's span: an answer from memory ends it at once (finished), the rest run inside it.
    const span = isWarmUp(req) ? undefined : tracer?.startRequest(req);
    const requestId = requestIdFrom(req.headers['x-request-id'], randomUUID);
    let pending: Pending | undefined;
    try {
      // Before any routing: only a canonical target goes further, so every router, file lookup and
      // rate limit below reads the same path (a socket's `/x/../api/contact` never reaches the API).
      const target = requestTarget(req.url!);
      if (target.kind !== 'ok') return answerOtherSpelling(req, res, requestId, target, span);
      pending = serveFast(req, res, requestId, target.pathname, span);
    } catch (error) {
      return withRequestId(requestId, () => failed(res, error as Error));
    }
    if (!pending) return;
    const next = pending;
    // Everything else (the API, Astro) may log from anywhere it awaits: those lines get the id from here.
    const run = () =>
      withRequestId(requestId, () => handle(req, res, requestId, next).catch((error: Error) => failed(res, error)));
    if (span) span.run(run);
    else run();
  }
}
