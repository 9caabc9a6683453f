// Our Node server, the one owner of the store in this process: it opens the database and builds the
// API once (store.ts), serves /api itself, the prebuilt site from disk, and hands the remaining pages
// to Astro with the store in `locals`. Every response gets the security headers, every line of log the
// request id. Run with Node 24 (type stripping): `node src/server/main.ts` after `npm run build`.
import './load-env.ts';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { baseCsp } from '../lib/csp.mjs';
import { SEARCH_BASE_PATH } from '../lib/search.ts';
import { ConfigError, loadConfig, startupConfigWarnings, type Config } from './config.ts';
import { isDatabaseUnavailable } from './db/client.ts';
import { clientAddress, forwardedHttps } from './http/client-address.ts';
import { accessLine, logger as log, logOut, requestIdFrom, withRequestId } from './logger.ts';
import { metrics, observeRequest, registerPoolStats } from './metrics.ts';
import { serveMetricsWithToken, startMetricsServer } from './metrics-server.ts';
import { allowedOrigin } from './http/origin.ts';
import { publicReads } from './public-reads.ts';
import { staticSite } from './static-files.ts';
import { openStore, type Store } from './store.ts';

let config: Config;
try {
  config = loadConfig(process.env, { server: true });
  for (const warning of startupConfigWarnings(config)) log.warn(warning);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
const { handler: astro } = (await import(pathToFileURL(path.join(dist, 'server', 'entry.mjs')).href)) as {
  handler: (req: IncomingMessage, res: ServerResponse, next: undefined, locals: App.Locals) => Promise<void>;
};

// The header policy every response carries; prebuilt pages replace it with theirs (with script hashes).
const csp = baseCsp(process.env);
// As a flat name/value list: written with writeHead on the hot paths, with setHeader elsewhere.
const securityHeaders = [
  'X-Content-Type-Options',
  'nosniff',
  'Referrer-Policy',
  'strict-origin-when-cross-origin',
  'X-Frame-Options',
  'DENY',
  'Cross-Origin-Opener-Policy',
  'same-origin-allow-popups',
  'Permissions-Policy',
  'camera=(), microphone=(), geolocation=(), payment=(self)',
];
const hsts = ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'];

const site = staticSite(path.join(dist, 'client'), path.join(dist, '_headers.json'), csp);

/** The store once its database is open; until then /api answers 503 and /api/health says alive. */
let store: Store | undefined;
const reads = publicReads({
  policy: csp,
  changes: {
    get version() {
      return store?.changes.version ?? 0;
    },
  },
});

/** Headers every response carries: the request id and the security headers but the CSP (HSTS over https). */
function commonHeaders(req: IncomingMessage, requestId: string): string[] {
  const common = ['X-Request-Id', requestId, ...securityHeaders];
  return forwardedHttps(req, config.trustProxy) ? [...common, ...hsts] : common;
}

/** A prebuilt tool page whose tool was deleted must not be served: the on-demand route answers 404. */
function isDeletedTool(pathname: string): boolean {
  const match = /^\/tools\/([^/]+)\/?$/.exec(pathname);
  return Boolean(match && store?.tools.exists(match[1]) === false);
}

// The API answers through @hono/node-server, like any Hono server on Node (it swaps in its lighter
// global Request/Response: a JSON answer is written straight to the socket, not through a web stream).
const api = getRequestListener((request, env) => {
  const { incoming } = env as HttpBindings;
  const read = incoming.method === 'GET' || incoming.method === 'HEAD';
  return store!.app.fetch(request, {
    clientAddress: clientAddress(incoming, config.trustProxy),
    keep: read ? reads.keeper(incoming.url!) : undefined,
  });
});

const logRequests = log.isLevelEnabled('info');
/** The access log line and the request metrics, written by hand: this runs per request. */
function finished(req: IncomingMessage, status: number, requestId: string, started: number) {
  const seconds = (performance.now() - started) / 1000;
  const url = req.url ?? '/';
  observeRequest(req.method, url, status, seconds);
  if (!logRequests) return;
  logOut.write(
    accessLine(requestId, clientAddress(req, config.trustProxy), req.method!, url, status, Math.round(seconds * 1000)),
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store', ...extra });
  res.end(text);
}

/** Before the database is open: alive, not ready, and every other call asked to come back. */
function answerStarting(res: ServerResponse, pathname: string) {
  if (pathname === '/api/health') return sendJson(res, 200, { ok: true });
  sendJson(
    res,
    503,
    { error: { code: 'starting', message: 'The store is starting. Please try again in a moment.' } },
    { 'Retry-After': '2' },
  );
}

// Paths the URL parser would leave as they are (no query, escape, dot segment, backslash or `//`):
// most requests, whose pathname is then the URL itself, without building a URL object.
const PLAIN_PATH = /^\/[\w\-.~/]*$/;

/** The decoded pathname of a request URL, or '' when it cannot be decoded. */
function pathnameOf(url: string): string {
  if (PLAIN_PATH.test(url) && !url.includes('/.') && !url.includes('//')) return url;
  try {
    return decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return '';
  }
}

interface Pending {
  started: number;
  headers: string[];
  read: boolean;
  isApi: boolean;
  pathname: string;
}

/**
 * The hot paths: a public API read from memory, a prebuilt file. Each writes every header at once and
 * logs only its access line (which carries the request id itself), so they run outside the request-id
 * context. Returns what the rest of the handling needs when neither answered.
 */
function serveFast(req: IncomingMessage, res: ServerResponse, requestId: string): Pending | undefined {
  const started = performance.now();
  const headers = commonHeaders(req, requestId);
  const read = req.method === 'GET' || req.method === 'HEAD';
  const url = req.url!;
  const isApi = url.startsWith('/api/');
  if (read && isApi) {
    if (reads.serve(req, res, headers)) {
      metrics.cacheHit();
      finished(req, res.statusCode, requestId, started);
      return undefined;
    }
    metrics.cacheMiss();
  }
  const pathname = pathnameOf(url);
  // The search index is the live one (src/pages/pagefind) once the store is open, the build's before.
  const liveSearch = store !== undefined && pathname.startsWith(SEARCH_BASE_PATH);
  if (pathname && !isApi && !liveSearch && !isDeletedTool(pathname) && site.serve(req, res, pathname, headers)) {
    finished(req, res.statusCode, requestId, started);
    return undefined;
  }
  return { started, headers, read, isApi, pathname };
}

async function handle(req: IncomingMessage, res: ServerResponse, requestId: string, pending: Pending) {
  const { started, headers, read, isApi, pathname } = pending;
  res.on('finish', () => finished(req, res.statusCode, requestId, started));
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
  res.setHeader('Content-Security-Policy', csp);
  if (!pathname) {
    res.statusCode = 400;
    res.end('Bad request');
    return;
  }
  if (pathname === '/metrics' && serveMetricsWithToken(req, res, config.metrics.token)) return;
  if (isApi) {
    if (!store) return answerStarting(res, pathname);
    // A browser on another site cannot make a signed-in user's browser write here (our calls carry a
    // bearer token, so this is defence in depth; behind a TLS proxy the public origin is PUBLIC_SITE_URL).
    if (!read && !allowedOrigin(req, config)) {
      return sendJson(res, 403, { error: { code: 'forbidden', message: 'Cross-site requests are not allowed' } });
    }
    return api(req, res);
  }
  if (!store) return answerStarting(res, pathname);
  // Without a `next`, Astro answers unknown paths itself with the 404 page and status 404.
  await astro(req, res, undefined, { store });
}

function failed(res: ServerResponse, error: Error) {
  log.error({ err: error }, 'unhandled request error');
  if (!res.headersSent)
    sendJson(res, 500, {
      error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' },
    });
  else res.destroy();
}

const server = createServer((req, res) => {
  const requestId = requestIdFrom(req.headers['x-request-id'], randomUUID);
  let pending: Pending | undefined;
  try {
    pending = serveFast(req, res, requestId);
  } catch (error) {
    return withRequestId(requestId, () => failed(res, error as Error));
  }
  if (!pending) return;
  // Everything else (the API, Astro) may log from anywhere it awaits: those lines get the id from here.
  withRequestId(requestId, () => handle(req, res, requestId, pending).catch((error: Error) => failed(res, error)));
});

server.keepAliveTimeout = 65_000;
server.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE')
    console.error(`Port ${config.port} on ${config.host} is already in use. Stop the other server or set PORT.`);
  else console.error(`Server error: ${error.message}`);
  process.exit(1);
});

/** Opens the store; while PostgreSQL is out of reach, keeps trying (the process stays up, not ready). */
async function openWhenReachable() {
  for (let delay = 500; !stopping; delay = Math.min(delay * 2, 10_000)) {
    try {
      store = await openStore(config);
      if (store.db.pool)
        registerPoolStats(() => ({
          total: store!.db.pool!.totalCount,
          idle: store!.db.pool!.idleCount,
          waiting: store!.db.pool!.waitingCount,
        }));
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log.warn({ err: (error as Error).message, retryInMs: delay }, 'database unreachable; retrying');
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

server.listen(config.port, config.host, async () => {
  const url = `http://${config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
  try {
    if (config.metrics.port) await startMetricsServer(config.metrics.port);
    await openWhenReachable();
  } catch (error) {
    console.error(`The store could not start: ${(error as Error).message}`);
    await shutdown('startup-failure', 1);
    return;
  }
  if (stopping) return;
  log.info({ url }, 'store ready');
  logOut.flush();
  process.send?.('ready');
});

let stopping = false;
async function shutdown(signal: string, code = 0) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(code || 1), 10_000);
  force.unref();
  // Stop accepting, let in-flight requests finish (the proxy sends new ones elsewhere), then close the database.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await store?.close();
  logOut.flush();
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
