// Part of scale (issue 15, "cost that grows with the data"): the dashboard's order lists with
// 1,000,000 orders, 10,000 of them one buyer's, and a catalogue of 10,000 tools, on PGlite and PostgreSQL. Timed: the admin's first page
// (GET /api/booking?limit=50, what Manage All Orders opens with), a page halfway down the list, and the
// buyer's first and middle pages (GET /api/booking/email/{email}?limit=50, My Orders). Every request runs
// its queries (these reads are never cached). Stores are seeded with SQL (generate_series), as the
// reviews are; tokens are signed with the store's JWT secret, so no sign-in is involved. The same stores
// measure the server's memory (issue 30, goal 4): at rest, under load, its peak, and where it goes.
//
// Alone: `node scripts/bench/orders-scale.ts` (BENCH_ORDERS, BENCH_BUYER_ORDERS, BENCH_ORDERS_PORT,
// BENCH_ORDERS_DIST_DIR).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { signAccessToken } from '../../src/server/auth/jwt.ts';
import { type Db } from '../../src/server/db/client.ts';
import { openDb } from '../../src/server/db/open.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { seedIfEmpty } from '../../src/server/db/seed.ts';
import { encodeCursor } from '../../src/server/db/paging.ts';
import { fillTools } from './catalogue.ts';
import {
  heapSnapshotEnv,
  heapSummary,
  memorySplit,
  renderMemorySplit,
  type HeapSummary,
  type MemorySplit,
} from './heap-summary.ts';
import { hammer, http, percentile, round } from './load.ts';
import { memoryOf, pgScratch, PORTS, startStore, untilLogged, type Store } from './store.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const BUYER_ORDERS = Number(process.env.BENCH_BUYER_ORDERS ?? 10_000);
const TOOLS = Number(process.env.BENCH_ORDERS_TOOLS ?? 10_000);
const PORT = Number(process.env.BENCH_ORDERS_PORT ?? PORTS.scale);
const METRICS_PORT = PORT + 1;
// Run alone, the store may serve another build than the bench's (only its API is timed).
const DIST = process.env.BENCH_ORDERS_DIST_DIR ? { DIST_DIR: process.env.BENCH_ORDERS_DIST_DIR } : {};
const LIMIT = 50;
/** At rest: this long without requests, after ready and again after the load. */
const QUIET_SECONDS = 20;
/** The longest at rest waits for the server's first idle collection after ready. */
const REST_MAX_SECONDS = 60;
const SAMPLES = 300;
const GOAL_MS = 50;
const ADMIN = { email: 'bench-orders-admin@ironcrest.test', uid: 'bench-orders-admin' };
const BUYER = { email: 'bench-buyer@ironcrest.test', uid: 'bench-buyer' };

interface Latency {
  p50: number;
  p99: number;
}
export interface OrdersScaleRun {
  db: string;
  orders: number;
  buyerOrders: number;
  insertSeconds: number;
  /** What the first admin page said the total is (checks the kept count). */
  total: number;
  adminFirst: Latency;
  adminMiddle: Latency;
  buyerFirst: Latency;
  buyerMiddle: Latency;
  tools: number;
  /**
   * Resident MiB at rest (no requests since ready, once the server has finished its start-up and gone quiet:
   * its first idle collection, `restAfterSeconds` after ready), under load (after the timed reads and a
   * catalogue load), QUIET_SECONDS after that load, and the peak since start.
   */
  memory?: { restMiB: number; restAfterSeconds?: number; loadMiB: number; quietMiB?: number; peakMiB: number };
  /** Where it goes: at rest (no collection forced), and under load with a heap snapshot. */
  split?: { rest?: MemorySplit; loaded?: HeapSummary };
}

/** Issue 30's goal 4, by database kind: resident memory at rest and at its peak. */
const MEMORY_GOALS: Record<string, { restMiB: number; peakMiB?: number }> = {
  PGlite: { restMiB: 250, peakMiB: 512 },
  PostgreSQL: { restMiB: 150 },
};

const seconds = (since: number) => round((performance.now() - since) / 1000, 1);
const lat = (times: number[]): Latency => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50), 2), p99: round(percentile(sorted, 99), 2) };
};

/**
 * n orders in one statement (one in every n/buyerOrders is the buyer's, the rest spread over 50,000
 * shoppers; one in ten unpaid, holding until tomorrow), with the kept count written once at the end
 * instead of by the per-row trigger. Fills the order lines too where the schema has them.
 */
export async function insertOrders(db: Db, n: number, buyerOrders: number): Promise<number> {
  const started = performance.now();
  const [schema] = await db.query<{ total_cents: boolean; items: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                      AND table_name = 'orders' AND column_name = 'total_cents') AS total_cents,
            to_regclass('order_items') IS NOT NULL AS items`,
  );
  const every = Math.max(1, Math.floor(n / Math.max(1, buyerOrders)));
  const buyer = `g % ${every} = 0 AND g / ${every} <= ${buyerOrders}`;
  await db.exec('ALTER TABLE orders DISABLE TRIGGER orders_counted');
  await db.query(
    `INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, user_name, email, address, phone,
                         payment, transaction_id, expires_at, paid_at, buyer_uid${schema.total_cents ? ', total_cents' : ''})
     SELECT 'be' || lpad(to_hex(g), 22, '0'), t.id, t.name, t.price_cents, 1 + g % 5,
            CASE WHEN ${buyer} THEN 'Bench Buyer' ELSE 'Shopper ' || g % 50000 END,
            CASE WHEN ${buyer} THEN '${BUYER.email}' ELSE 'shopper' || g % 50000 || '@bench.test' END,
            '12 Forge Lane, Dhaka 1207', '01712345678',
            CASE WHEN g % 10 = 0 THEN 'unpaid' ELSE 'paid' END,
            CASE WHEN g % 10 = 0 THEN NULL ELSE 'pi_bench_' || g END,
            now() + interval '1 day', CASE WHEN g % 10 = 0 THEN NULL ELSE now() END,
            CASE WHEN ${buyer} THEN '${BUYER.uid}' ELSE 'shopper-' || g % 50000 END
            ${schema.total_cents ? ', t.price_cents::bigint * (1 + g % 5)' : ''}
     FROM generate_series(1, $1::int) AS g, (SELECT id, name, price_cents FROM tools ORDER BY seq LIMIT 1) AS t`,
    [n],
  );
  if (schema.items) {
    await db.exec(
      `INSERT INTO order_items (order_id, line, tool_id, product_name, unit_price_cents, quantity)
       SELECT id, 1, tool_id, product_name, unit_price_cents, quantity FROM orders WHERE id LIKE 'be%'`,
    );
  }
  await db.exec('ALTER TABLE orders ENABLE TRIGGER orders_counted');
  await db.exec(
    `UPDATE row_counts SET n = CASE WHEN slot = 0 THEN (SELECT count(*) FROM orders) ELSE 0 END WHERE name = 'orders'`,
  );
  await db.query(
    `INSERT INTO users (email, name, role, email_verified, firebase_uid) VALUES ($1, 'Bench Admin', 'admin', true, $2), ($3, 'Bench Buyer', 'user', true, $4)
     ON CONFLICT (email) DO NOTHING`,
    [ADMIN.email, ADMIN.uid, BUYER.email, BUYER.uid],
  );
  return seconds(started);
}

/** The cursors that open the page halfway down the whole list and halfway down the buyer's. */
async function middleCursors(db: Db): Promise<{ admin: string; buyer: string }> {
  const [all] = await db.query<{ seq: number }>('SELECT seq FROM orders ORDER BY seq DESC OFFSET $1 LIMIT 1', [
    Math.floor(ORDERS / 2),
  ]);
  const [mine] = await db.query<{ seq: number }>(
    'SELECT seq FROM orders WHERE email = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1',
    [BUYER.email, Math.floor(BUYER_ORDERS / 2)],
  );
  return { admin: encodeCursor(all.seq), buyer: encodeCursor(mine.seq) };
}

const WARM_UP = 20;

/** Latencies of `count` sequential GETs of url on one keep-alive connection, after WARM_UP untimed ones. */
async function timed(url: string, token: string, count = SAMPLES): Promise<{ times: number[]; body: string }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let body = '';
  try {
    for (let i = 0; i < count + WARM_UP; i++) {
      const r = await http('GET', url, { agent, token });
      if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${r.body.slice(0, 200)}`);
      if (i >= WARM_UP) times.push(r.ms);
      body = r.body;
    }
  } finally {
    agent.destroy();
  }
  return { times, body };
}

async function measure(
  db: string,
  store: Store,
  secret: string,
  cursors: { admin: string; buyer: string },
  insertSeconds: number,
  heapDir: string,
): Promise<OrdersScaleRun> {
  const { url, pid } = store;
  const key = new TextEncoder().encode(secret);
  const admin = await signAccessToken(key, ADMIN.email, Date.now(), ADMIN.uid);
  const buyer = await signAccessToken(key, BUYER.email, Date.now(), BUYER.uid);
  // What a server does once after start (catalogue, search index, the first hold sweep) is not timed, and
  // at rest is after it: without requests, until the server has gone quiet and made its idle collection
  // (host/idle-memory.ts: ~10 s of quiet after the search index). A fixed 20 s read some stores a moment
  // before it, others a moment after (134–215 MiB for the same PostgreSQL store).
  const restWaitMs = await untilLogged(store, 'idle: heap compacted', REST_MAX_SECONDS * 1000);
  const rest = await memoryOf(pid);
  const metricsUrl = `http://127.0.0.1:${METRICS_PORT}/metrics`;
  const restSplit = await memorySplit(pid, metricsUrl).catch(() => undefined);
  const adminFirst = await timed(`${url}/api/booking?limit=${LIMIT}`, admin);
  const page = JSON.parse(adminFirst.body) as { items: unknown[]; total: number };
  if (page.items.length !== LIMIT || page.total < ORDERS)
    throw new Error(`unexpected first page: ${page.items.length} items, total ${page.total}`);
  const adminMiddle = await timed(`${url}/api/booking?limit=${LIMIT}&cursor=${cursors.admin}`, admin);
  const mine = `${url}/api/booking/email/${encodeURIComponent(BUYER.email)}?limit=${LIMIT}`;
  const buyerFirst = await timed(mine, buyer);
  const buyerPage = JSON.parse(buyerFirst.body) as { items: unknown[]; total: number };
  if (buyerPage.total !== BUYER_ORDERS) throw new Error(`the buyer's total is ${buyerPage.total}, not ${BUYER_ORDERS}`);
  const buyerMiddle = await timed(`${mine}&cursor=${cursors.buyer}`, buyer);
  // Then the catalogue's reads under load (wrk, as the api part): the API's list and a tool, the catalogue page.
  for (const p of ['/api/tools', '/api/tools/' + '1'.padStart(24, '0'), '/tools', '/tools/page/50'])
    await hammer(url + p, {}, [pid], 4);
  const loaded = await memoryOf(pid);
  const loadedSplit = await memorySplit(pid, metricsUrl).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000));
  const quiet = await memoryOf(pid);
  const heap = await heapSummary(pid, metricsUrl, heapDir, loadedSplit).catch((e: Error) => {
    console.log(`  heap summary failed: ${e.message}`);
    return undefined;
  });
  const run: OrdersScaleRun = {
    db,
    orders: ORDERS,
    buyerOrders: BUYER_ORDERS,
    insertSeconds,
    total: page.total,
    adminFirst: lat(adminFirst.times),
    adminMiddle: lat(adminMiddle.times),
    buyerFirst: lat(buyerFirst.times),
    buyerMiddle: lat(buyerMiddle.times),
    tools: TOOLS,
    memory:
      rest && loaded
        ? {
            restMiB: rest.rssMiB,
            restAfterSeconds: restWaitMs === undefined ? undefined : round(restWaitMs / 1000, 1),
            loadMiB: loaded.rssMiB,
            quietMiB: quiet?.rssMiB,
            peakMiB: loaded.peakMiB,
          }
        : undefined,
    split: { rest: restSplit, loaded: heap },
  };
  console.log(
    `  orders ${db.padEnd(16)} insert ${insertSeconds} s | p50/p99: admin first page ${run.adminFirst.p50}/${run.adminFirst.p99} ms, middle ${run.adminMiddle.p50}/${run.adminMiddle.p99} ms | buyer (${BUYER_ORDERS}) first ${run.buyerFirst.p50}/${run.buyerFirst.p99} ms, middle ${run.buyerMiddle.p50}/${run.buyerMiddle.p99} ms | memory rest ${run.memory?.restMiB} MiB (${run.memory?.restAfterSeconds ?? '–'} s after ready), load ${run.memory?.loadMiB}, quiet after ${run.memory?.quietMiB}, peak ${run.memory?.peakMiB}`,
  );
  return run;
}

async function onPglite(): Promise<OrdersScaleRun> {
  const dataDir = '.data-bench-orders';
  rmSync(dataDir, { recursive: true, force: true });
  const db = await openDb({ dataDir });
  await migrate(db);
  await seedIfEmpty(db);
  await fillTools(db, TOOLS);
  const insertSeconds = await insertOrders(db, ORDERS, BUYER_ORDERS);
  // PGlite runs no autovacuum; planner statistics and the visibility map as after any bulk load.
  await db.exec('VACUUM ANALYZE');
  const cursors = await middleCursors(db);
  await db.close();
  const secret = randomBytes(32).toString('hex');
  const { dir, NODE_OPTIONS } = heapSnapshotEnv('orders-pglite');
  const store = await startStore({
    name: 'scale-orders-pglite',
    port: PORT,
    env: { DATA_DIR: dataDir, JWT_SECRET: secret, METRICS_PORT: String(METRICS_PORT), NODE_OPTIONS, ...DIST },
  });
  try {
    return await measure('PGlite', store, secret, cursors, insertSeconds, dir);
  } finally {
    await store.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(): Promise<OrdersScaleRun | undefined> {
  const scratch = await pgScratch('orders');
  if (!scratch) return undefined;
  try {
    const db = await openDb({ databaseUrl: scratch.url });
    await migrate(db);
    await seedIfEmpty(db);
    await fillTools(db, TOOLS);
    const insertSeconds = await insertOrders(db, ORDERS, BUYER_ORDERS);
    await db.exec('VACUUM ANALYZE');
    const cursors = await middleCursors(db);
    await db.close();
    const secret = randomBytes(32).toString('hex');
    const { dir, NODE_OPTIONS } = heapSnapshotEnv('orders-pg');
    const store = await startStore({
      name: 'scale-orders-pg',
      port: PORT,
      env: {
        DATABASE_URL: scratch.url,
        DATA_DIR: '.data-bench-pg',
        JWT_SECRET: secret,
        METRICS_PORT: String(METRICS_PORT),
        NODE_OPTIONS,
        ...DIST,
      },
    });
    try {
      return await measure(`PostgreSQL ${scratch.version.split(' ')[0]}`, store, secret, cursors, insertSeconds, dir);
    } finally {
      await store.stop();
    }
  } finally {
    await scratch.drop();
  }
}

export async function ordersAtScale(): Promise<OrdersScaleRun[]> {
  const runs = [await onPglite()];
  const pg = await onPostgres();
  if (pg) runs.push(pg);
  return runs;
}

const ms = (l: Latency) => `${l.p50} / ${l.p99} ms`;

function memoryRow(r: OrdersScaleRun, m: NonNullable<OrdersScaleRun['memory']>) {
  const kind = r.db.split(' ')[0];
  const goal = MEMORY_GOALS[kind];
  return {
    metric: `server memory ${kind}, ${r.tools.toLocaleString('en')} tools and ${r.orders.toLocaleString('en')} orders: at rest / under load / quiet after it / peak`,
    goal: `at rest < ${goal.restMiB} MiB${goal.peakMiB ? `, peak < ${goal.peakMiB} MiB` : ''}`,
    result: `${m.restMiB} / ${m.loadMiB} / ${m.quietMiB ?? '—'} / ${m.peakMiB} MiB`,
    ok: m.restMiB < goal.restMiB && (!goal.peakMiB || m.peakMiB < goal.peakMiB),
  };
}

function memoryLines(runs: OrdersScaleRun[]): string[] {
  return [
    '',
    `### Server memory with ${runs[0].tools.toLocaleString('en')} tools and ${runs[0].orders.toLocaleString('en')} orders (issue 30, goal 4)`,
    '',
    'The stores above, one process each: resident memory (RSS) at rest, without requests since ready, once the server has',
    'finished its start-up (the search index) and made its first idle collection (the seconds after ready in brackets; at most',
    `${REST_MAX_SECONDS} s); after the timed reads and 4 s of wrk on \`/api/tools\`, a tool, \`/tools\` and a catalogue`,
    `page; ${QUIET_SECONDS} s without requests after that; and the peak since start (VmHWM). Then where it goes at rest and under`,
    "load: resident memory by mapping, V8's heap from the server's /metrics, and a heap snapshot's largest groups.",
    '',
    '| database | at rest | under load | quiet after it | peak since start | goal |',
    '|---|---|---|---|---|---|',
    ...runs.map((r) => {
      const goal = MEMORY_GOALS[r.db.split(' ')[0]];
      const m = r.memory;
      const restAfter = m?.restAfterSeconds === undefined ? '' : ` (${m.restAfterSeconds} s)`;
      return `| ${r.db} | ${m?.restMiB ?? '—'} MiB${restAfter} | ${m?.loadMiB ?? '—'} MiB | ${m?.quietMiB ?? '—'} MiB | ${m?.peakMiB ?? '—'} MiB | at rest < ${goal.restMiB} MiB${goal.peakMiB ? `, peak < ${goal.peakMiB} MiB` : ''} |`;
    }),
    '',
    ...runs.flatMap((r) => renderMemorySplit(r.db, r.split?.rest, r.split?.loaded)),
  ];
}

/** The scale report's section on order lists and memory, and its summary rows. */
export function renderOrdersScale(runs: OrdersScaleRun[] | undefined) {
  if (!runs?.length) return { lines: [], summary: [] };
  const lines = [
    '',
    `### Order lists with ${runs[0].orders.toLocaleString('en')} orders, one buyer with ${runs[0].buyerOrders.toLocaleString('en')} (limit ${LIMIT})`,
    '',
    `Sequential requests on one keep-alive connection, ${SAMPLES} each; every one runs its queries (order lists are never cached).`,
    'Admin: GET /api/booking (Manage All Orders), the first page and a page halfway down the list. Buyer: GET /api/booking/email/{email} (My Orders).',
    '',
    '| database | insert | total shown | admin first page p50 / p99 | admin middle page p50 / p99 | buyer first page p50 / p99 | buyer middle page p50 / p99 |',
    '|---|---|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.db} | ${r.insertSeconds} s | ${r.total.toLocaleString('en')} | ${ms(r.adminFirst)} | ${ms(r.adminMiddle)} | ${ms(r.buyerFirst)} | ${ms(r.buyerMiddle)} |`,
    ),
    // Runs recorded before the memory measurement (bench/results.json) have no tools count.
    ...(runs[0].tools === undefined ? [] : memoryLines(runs)),
  ];
  const summary = runs.flatMap((r) => [
    {
      metric: `orders 1M ${r.db.split(' ')[0]}: admin first page p50 / p99`,
      goal: `< ${GOAL_MS} ms`,
      result: ms(r.adminFirst),
      ok: r.adminFirst.p99 < GOAL_MS,
    },
    {
      metric: `orders: buyer with ${r.buyerOrders.toLocaleString('en')} orders ${r.db.split(' ')[0]}, first page p50 / p99`,
      goal: `< ${GOAL_MS} ms`,
      result: ms(r.buyerFirst),
      ok: r.buyerFirst.p99 < GOAL_MS,
    },
    ...(r.memory?.restMiB !== undefined ? [memoryRow(r, r.memory)] : []),
  ]);
  return { lines, summary };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { cleanup } = await import('./store.ts');
  try {
    const runs = await ordersAtScale();
    console.log(renderOrdersScale(runs).lines.join('\n'));
  } finally {
    await cleanup();
  }
}
