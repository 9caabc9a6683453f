// Issue 30, goal 3: before a server says ready it warms the order path (src/server/host/warm-up.ts): a
// batch of made-up orders placed and rolled back (orders.rehearse), and rushes of POST /api/booking by a
// buyer nobody is. Neither may leave anything behind: no row, no event, no stock taken, no cache told,
// no access-log line or request metric; and real orders placed after it are placed exactly.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signAccessToken } from '../../src/server/auth/jwt';
import { WARM_UP_BUYER, warmOrdering } from '../../src/server/host/warm-up';
import { logger, logOut } from '../../src/server/observability/logger';
import { metricsText } from '../../src/server/observability/metrics';
import { ADMIN, ALICE, createTestRuntime, openTestRuntime, type TestRuntime } from './harness';
import { makeTool } from './helpers';
import { startOuter, type Outer } from './outer';

let runtime: TestRuntime;
let outer: Outer;
let admin: string;
let alice: string;

/** What the access log (and any other log line) wrote, kept here rather than printed. */
const written: string[] = [];
let level: string;

beforeAll(async () => {
  // The access log is written at info (the outer server reads the level once, when it is made).
  level = logger.level;
  logger.level = 'info';
  vi.spyOn(logOut, 'write').mockImplementation((line: string) => (written.push(line), true));
  runtime = await createTestRuntime();
  outer = await startOuter(runtime);
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
});
afterAll(async () => {
  await outer.close();
  await runtime.close();
  vi.restoreAllMocks();
  logger.level = level;
});

/** Rows in every table of the store. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await runtime.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables)
    counts[name] = (await runtime.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`))[0].n;
  return counts;
}

/** The request metrics' lines (the process's own gauges move by themselves). */
const requestMetrics = async () => (await metricsText()).split('\n').filter((line) => line.startsWith('http_request'));

const ownServer = { address: () => ({ port: outer.port, family: 'IPv4', address: '127.0.0.1' }) } as unknown as Server;
const address = '12 Forge Lane, Dhaka 1207';
const phone = '01712345678';

describe('warming the order path before ready', () => {
  it('rehearses a whole rush (placed and refused orders) and keeps nothing of it', async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 40, minimumOrderQuantity: 1 });
    await runtime.outbox.run();
    const before = await rowCounts();
    const listed = (await runtime.request('GET', '/api/tools')).data;
    const invalidate = vi.spyOn(runtime.tools, 'invalidate');

    await runtime.orders.rehearse(200);
    await runtime.orders.rehearse(8);

    expect(await rowCounts()).toEqual(before);
    expect(invalidate).not.toHaveBeenCalled();
    invalidate.mockRestore();
    expect((await runtime.request('GET', '/api/tools')).data).toEqual(listed);
    expect(await runtime.outbox.run()).toBeFalsy();
    const tool = (await runtime.request('GET', `/api/tools/${toolId}`)).data as { availableQuantity: number };
    expect(tool.availableQuantity).toBe(40);
  });

  it("rehearses on every connection of PostgreSQL's pool at once, which stay open; nothing is kept", async () => {
    await runtime.outbox.run();
    const before = await rowCounts();
    const pool = runtime.db.pool;
    let rehearsals = 0;
    await warmOrdering(ownServer, {
      rehearse: async (buyers) => {
        rehearsals++;
        await runtime.orders.rehearse(buyers);
      },
      connections: pool?.options.max,
      token: await signAccessToken(runtime.deps.jwtSecret, WARM_UP_BUYER),
      rounds: 1,
      buyers: 20,
    });
    expect(await rowCounts()).toEqual(before);
    if (!pool) return expect(rehearsals).toBe(1); // the embedded store has one connection
    // A new connection is a new backend that reads its caches and plans again during the first rush
    // (its p99 ~100-130 ms against 63-95 with every one warmed: bench/before-after.md, 2026-12-06 night).
    expect(rehearsals).toBe(pool.options.max);
    expect(pool.totalCount).toBe(pool.options.max);
    expect(pool.options.min).toBe(pool.options.max); // none closed when idle
  });

  it("refuses the made-up buyer's rush (401), logs and counts none of it, and real orders after it are exact", async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 10, minimumOrderQuantity: 1 });
    await runtime.outbox.run();
    const before = await rowCounts();
    const metricsBefore = await requestMetrics();
    written.length = 0;
    const rehearsed: number[] = [];
    const token = await signAccessToken(runtime.deps.jwtSecret, WARM_UP_BUYER);

    // The made-up buyer's token is good, but no user has its email: refused after the lookup.
    const direct = await runtime.request('POST', '/api/booking', {
      token,
      json: { toolId, quantity: 1, address, phone },
    });
    expect(direct.status).toBe(401);

    await warmOrdering(ownServer, {
      rehearse: async (buyers) => {
        rehearsed.push(buyers);
        await runtime.orders.rehearse(buyers);
      },
      token,
      rounds: 2,
      buyers: 30,
    });

    expect(rehearsed).toEqual([30, 30]);
    expect(written.filter((line) => line.includes('/api/booking'))).toEqual([]);
    expect(written.filter((line) => line.includes('"status":401'))).toEqual([]);
    expect(await requestMetrics()).toEqual(metricsBefore);
    expect(await rowCounts()).toEqual(before);

    // A stranger's request with a made-up warm-up header is logged as any other.
    await outer.raw('GET', '/api/tools', { 'x-warm-up': 'guess' });
    expect(written.filter((line) => line.includes('"path":"/api/tools"'))).toHaveLength(1);

    // Real orders after the warm-up: each placed once, the stock exact.
    const placed = await Promise.all(
      Array.from({ length: 4 }, () =>
        runtime.request('POST', '/api/booking', { token: alice, json: { toolId, quantity: 2, address, phone } }),
      ),
    );
    expect(placed.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const tool = (await runtime.request('GET', `/api/tools/${toolId}`)).data as { availableQuantity: number };
    expect(tool.availableQuantity).toBe(2);
  });

  it('/api/ready says not yet (503, warming_up) until the warm-up ends; health says alive meanwhile', async () => {
    const { runtime: warming, close } = await openTestRuntime({}, { warmUp: true });
    try {
      const ready = await warming.app.request('/api/ready');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ ok: false, error: { code: 'warming_up' } });
      expect((await warming.app.request('/api/health')).status).toBe(200);
      warming.warmedUp();
      const after = await warming.app.request('/api/ready');
      expect(after.status).toBe(200);
      expect(await after.json()).toMatchObject({ ok: true });
    } finally {
      await close();
    }
  });
});
