// Our Node server: security headers and logs on every response, the prebuilt site from disk,
// and everything else (API, on-demand pages) through Astro's handler, all in this one process.
// Run with Node 24 directly (type stripping): `node src/server/main.ts` after `npm run build`.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import pino from 'pino';
import { cspHosts } from '../lib/csp-hosts.mjs';
import { ConfigError, startupConfigError, loadConfig } from './config.ts';
import { batchedStdout } from './log-out.ts';
import { publicReads } from './public-reads.ts';
import { runtime } from './runtime.ts';
import { staticSite } from './static-files.ts';

const logOut = batchedStdout();
const log = pino({ base: undefined, level: process.env.LOG_LEVEL ?? 'info' }, logOut);

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
  const unsafe = startupConfigError(config);
  if (unsafe) throw new ConfigError(unsafe);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const serverFile = path.join(config.dataDir, 'server.json');
const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
const { handler } = (await import(pathToFileURL(path.join(dist, 'server', 'entry.mjs')).href)) as {
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
};

// The header policy every response carries. Pages add their own hashed script-src (from Astro);
// browsers enforce both, so inline scripts run only when Astro hashed them.
const hosts = cspHosts(process.env);
const baseCsp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline' ${hosts.script.join(' ')}`,
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: ${hosts.img.join(' ')}`,
  `connect-src 'self' ${hosts.connect.join(' ')}`,
  `frame-src ${hosts.frame.join(' ') || "'none'"}`,
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

// As a flat name/value list: written with writeHead on the hot paths, with setHeader elsewhere. The CSP
// is apart: prebuilt pages replace it with their own (with their script hashes).
const securityHeaders = [
  'X-Content-Type-Options', 'nosniff',
  'Referrer-Policy', 'strict-origin-when-cross-origin',
  'X-Frame-Options', 'DENY',
  'Cross-Origin-Opener-Policy', 'same-origin-allow-popups',
  'Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)',
];
const hsts = ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'];

const site = staticSite(path.join(dist, 'client'), path.join(dist, '_headers.json'), baseCsp);

/** Headers every response carries: the request id and the security headers but the CSP (HSTS over https). */
function commonHeaders(req: IncomingMessage, requestId: string): string[] {
  const https = req.headers['x-forwarded-proto'] === 'https' || (req.socket as { encrypted?: boolean }).encrypted;
  return https ? ['X-Request-Id', requestId, ...securityHeaders, ...hsts] : ['X-Request-Id', requestId, ...securityHeaders];
}

/** A prebuilt tool page whose tool was deleted must not be served: the app's fallback answers 404. */
function isDeletedTool(pathname: string): boolean {
  const match = /^\/tools\/([^/]+)\/?$/.exec(pathname);
  return Boolean(match && runtime.toolIds && !runtime.toolIds.has(match[1]));
}

// Reads of the API skip Astro's request pipeline, which cost several times the read itself; writes
// still go through Astro (its origin check and body size limit). Like every Hono server on Node, this
// swaps in @hono/node-server's lighter global Request/Response (Astro works with them too): a JSON
// answer is then written straight to the socket instead of through a web stream.
// Repeated public reads are answered from memory before even that (public-reads.ts).
const reads = publicReads();
const apiReads = getRequestListener((request, env) => {
  const { incoming } = env as HttpBindings;
  return runtime.api!(request, { clientAddress: incoming.socket.remoteAddress, keep: reads.keeper(incoming.url!) });
});

const logRequests = log.isLevelEnabled('info');
/** The access log line, as pino writes it but without its generic serialiser: this runs per request. */
function logRequest(req: IncomingMessage, status: number, requestId: string, started: number) {
  if (!logRequests) return;
  const path = JSON.stringify((req.url ?? '/').split('?')[0]);
  const ms = Math.round(performance.now() - started);
  logOut.write(
    `{"level":30,"time":${Date.now()},"reqId":"${requestId}","method":${JSON.stringify(req.method)},"path":${path},"status":${status},"ms":${ms},"msg":"request"}\n`,
  );
}

const server = createServer(async (req, res) => {
  const started = performance.now();
  const requestId = randomUUID();
  const headers = commonHeaders(req, requestId);
  const read = req.method === 'GET' || req.method === 'HEAD';
  const api = req.url!.startsWith('/api/');
  // The hot paths write every header at once, then log.
  if (read && api && reads.serve(req, res, [...headers, 'Content-Security-Policy', baseCsp])) {
    logRequest(req, res.statusCode, requestId, started);
    return;
  }
  let pathname = '/';
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    pathname = '';
  }
  if (pathname && !api && !isDeletedTool(pathname) && site.serve(req, res, pathname, headers)) {
    logRequest(req, res.statusCode, requestId, started);
    return;
  }
  res.on('finish', () => logRequest(req, res.statusCode, requestId, started));
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
  res.setHeader('Content-Security-Policy', baseCsp);
  if (!pathname) {
    res.statusCode = 400;
    res.end('Bad request');
    return;
  }
  if (api && read && runtime.api) return apiReads(req, res);
  // Without a `next`, Astro answers unknown paths itself with the 404 page and status 404.
  await handler(req, res);
});

server.keepAliveTimeout = 65_000;
server.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') console.error(`Port ${config.port} on ${config.host} is already in use. Stop the other server or set PORT.`);
  else console.error(`Server error: ${error.message}`);
  process.exit(1);
});

// How this process reaches itself: the bound address, or loopback when bound to every interface.
const selfHost = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
const selfUrl = `http://${selfHost}:${config.port}`;

server.listen(config.port, config.host, async () => {
  const url = `http://${config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
  // Open the database (migrate, seed) and load the catalogue before we say we are ready.
  try {
    const response = await fetch(`${selfUrl}/api/health`);
    if (!response.ok) throw new Error(`health answered ${response.status}`);
  } catch (error) {
    console.error(`The store could not start: ${(error as Error).message}`);
    await shutdown('startup-failure', 1);
    return;
  }
  // Lets a build see that this store is running and read through its API (src/server/build-data.ts).
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(serverFile, JSON.stringify({ pid: process.pid, url: selfUrl }));
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
  // Stop accepting, let in-flight requests finish, then close the database cleanly.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await runtime.close();
  rmSync(serverFile, { force: true });
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
