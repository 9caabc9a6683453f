// What runs before the store says it is ready, so that its first visitors and its first rush of buyers
// after a start or a deploy meet compiled code, planned statements and read pages, not cold ones.
//
// Pages: the ones most visitors open first, rendered once. A visitor within the copy's 10 s after a start
// gets it (~4 ms), and a later one a render by compiled code (~100 ms), not one by a process whose code is
// not yet compiled (~400 ms for the home page). Requests that arrive meanwhile join these renders.
//
// Ordering: a few rounds of (1) a batch of made-up orders placed by the code that places real batches, in
// a transaction that is rolled back (orders.rehearse), (2) the booking body's schema run once per buyer,
// and (3) a rush of POST /api/booking on new connections by a buyer nobody is, each answered 401 once the
// user lookup has found nobody: the connections, HTTP, routing, token and lookup code. On PostgreSQL (1)
// runs on every connection of the pool at once, so none is opened cold by the first rush. Measured by the
// bench's purchase part (first 200-buyer rush after a start, p99): PGlite ~200 → ~110 ms, PostgreSQL
// ~165 → ~90 ms; the start takes ~1 s (PGlite) or ~0.6 s (PostgreSQL) longer, and the store keeps ~18 MiB
// more. The HTTP rushes also compile the code a cached read shares with them for their mix: such a read
// then costs ~9% more, as after a few hundred POSTs of any kind (measured with one, ten and 200). Sent
// through app.fetch instead, they leave reads as they were but the HTTP path cold, and the first rush
// misses its goals (bench/before-after.md, 2026-11-29 evening; the schema and the deferred trigger,
// 2026-12-03 afternoon; the pool's connections, 2026-12-06 night).
import { randomUUID } from 'node:crypto';
import { request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { orderInputSchema } from '../../lib/schemas.ts';

export const WARM_PATHS = ['/', '/tools'];

/** Rounds of ordering warm-up, and buyers per rush (the bench's rush). */
const ORDER_ROUNDS = 3;
const RUSH_BUYERS = 200;
/** No round starts after this long, so a slow database cannot hold a start up for minutes. */
const ORDER_BUDGET_MS = 10_000;

/** The made-up buyer of the warm-up's rushes: no account has it (`.invalid` is reserved), and its token has no uid. */
export const WARM_UP_BUYER = 'warm-up@warm-up.invalid';

// Marks the warm-up's own requests, which the access log, the request metrics and tracing leave out (an
// operator would see 600 refused orders at every start): random per process, sent only to itself.
const WARM_UP_KEY = randomUUID();
export const isWarmUp = (req: IncomingMessage) => req.headers['x-warm-up'] === WARM_UP_KEY;

/** GETs each path from this server, one after another; a failure or timeout is skipped, not fatal. */
export async function warmPages(server: Server, paths = WARM_PATHS, timeoutMs = 10_000): Promise<void> {
  const own = ownAddress(server);
  for (const path of paths) await ask(own, path, timeoutMs).catch(() => {});
}

/**
 * Rounds of a rehearsed batch (`rehearse`: placed and rolled back, nothing kept) and a rush of POST
 * /api/booking on new connections with `token` (the made-up buyer's); a failure is skipped, not fatal,
 * and no round starts once `budgetMs` has passed.
 */
export async function warmOrdering(
  server: Server,
  {
    rehearse,
    connections = 1,
    token,
    rounds = ORDER_ROUNDS,
    buyers = RUSH_BUYERS,
    timeoutMs = 10_000,
    budgetMs = ORDER_BUDGET_MS,
  }: {
    rehearse: (buyers: number) => Promise<void>;
    /** The database's connections (PostgreSQL's pool): each one rehearses, as a rush may use them all. */
    connections?: number;
    token: string;
    rounds?: number;
    buyers?: number;
    timeoutMs?: number;
    budgetMs?: number;
  },
): Promise<void> {
  const own = ownAddress(server);
  const until = performance.now() + budgetMs;
  const body = JSON.stringify({ toolId: 'warm-up', quantity: 2, address: 'Warm-up Street 1', phone: '01712345678' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const sample: unknown = JSON.parse(body);
  for (let round = 0; round < rounds && performance.now() < until; round++) {
    // As many at once as the pool has connections, so it opens each one (they wait for each other's
    // buyers' locks, each on its own connection) and each backend has read and planned what a rush runs.
    await Promise.all(Array.from({ length: connections }, () => rehearse(buyers).catch(() => {})));
    // The rush's bookings are refused before their bodies are read (no such buyer), so the body's schema
    // is run here, as often: a cold one took ~12 ms of the first real rush's main thread, a warm one ~5.
    for (let i = 0; i < buyers; i++) orderInputSchema.safeParse(sample);
    await Promise.all(
      Array.from({ length: buyers }, () =>
        ask(own, '/api/booking', timeoutMs, { method: 'POST', body, headers }).catch(() => {}),
      ),
    );
  }
}

/** Where this server answers itself: its address, or loopback when it listens on every address. */
function ownAddress(server: Server): { host: string; port: number } {
  const { family, address, port } = server.address() as AddressInfo;
  const any = address === '0.0.0.0' || address === '::';
  return { host: any ? (family === 'IPv6' ? '::1' : '127.0.0.1') : address, port };
}

/** One request on a connection of its own (as a rush's buyers arrive), its answer read and dropped. */
function ask(
  { host, port }: { host: string; port: number },
  path: string,
  timeoutMs: number,
  { method = 'GET', body, headers }: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host,
        port,
        path,
        method,
        agent: false,
        headers: { 'accept-encoding': 'br, gzip', 'x-request-id': 'warm-up', 'x-warm-up': WARM_UP_KEY, ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`warming ${path} took over ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
