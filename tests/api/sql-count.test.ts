// Issue 30, goal 5: placing an order costs a fixed, small number of SQL statements, whatever the size of
// the catalogue and however many orders the buyer has. Counted per request: every statement the API
// sends (inside and outside transactions; BEGIN and COMMIT not counted). The buyer's row, which the
// signed-in check reads, is kept in memory after the first request (users/user-rules.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable, TransactionOptions } from '../../src/server/db/client';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { makeTool } from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let statements: string[] | undefined;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  // Count what the services send: they call db.query and db.transaction's tx.query at call time.
  const db = runtime.db as Db & Record<string, unknown>;
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = ((sql: string, params?: unknown[]) => (statements?.push(sql), query(sql, params))) as Db['query'];
  db.transaction = ((fn: (tx: Queryable) => Promise<unknown>, options?: TransactionOptions) =>
    transaction(
      (tx) =>
        fn({
          ...tx,
          query: ((sql: string, params?: unknown[]) => (
            statements?.push(sql),
            tx.query(sql, params)
          )) as Queryable['query'],
        }),
      options,
    )) as Db['transaction'];
});
afterAll(() => runtime.close());

async function counted(request: () => Promise<{ status: number; data: unknown }>, status = 201): Promise<number> {
  statements = [];
  const res = await request();
  expect(res.status, JSON.stringify(res.data)).toBe(status);
  const n = statements.length;
  statements = undefined;
  return n;
}

const address = '12 Forge Lane, Dhaka 1207';
const phone = '01712345678';
const oneLine = (toolId: string) => () =>
  runtime.request('POST', '/api/booking', { token: alice, json: { toolId, quantity: 1, address, phone } });
const cart = (toolIds: string[]) => () =>
  runtime.request('POST', '/api/orders', {
    token: alice,
    json: { items: toolIds.map((toolId) => ({ toolId, quantity: 1 })), address, phone },
  });

describe('statements per order placed', () => {
  it('one line: at most 5, and a 10-line cart a fixed number, the same with 200 more tools and 40 more orders', async () => {
    const tools = [];
    for (let i = 0; i < 11; i++)
      tools.push(await makeTool(runtime, admin, { availableQuantity: 1000, minimumOrderQuantity: 1 }));
    // Warm: the first order of a store reads what later ones find in memory.
    await counted(oneLine(tools[0]));
    const one = await counted(oneLine(tools[0]));
    const ten = await counted(cart(tools.slice(1)));
    // Unpaid orders do not pile up against the buyer's limit: delete them before growing the data.
    await runtime.db.query(`DELETE FROM orders WHERE email = $1`, [ALICE]);

    for (let i = 0; i < 200; i++) await makeTool(runtime, admin);
    for (let i = 0; i < 40; i++) {
      await runtime.db.query(
        `INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, total_cents, user_name, email, address, phone,
           expires_at, payment, subtotal_cents)
         VALUES ($1, $2, 'Old', 100, 1, 100, 'Alice', $3, $4, $5, now(), 'paid', 100)`,
        [`old${String(i).padStart(21, '0')}`, tools[0], ALICE, address, phone],
      );
    }
    expect(await counted(oneLine(tools[0]))).toBe(one);
    expect(await counted(cart(tools.slice(1)))).toBe(ten);
    expect(one).toBeLessThanOrEqual(5);
    console.log(`statements: one line ${one}, a 10-line cart ${ten} (${runtime.db.kind})`);
  });

  it('deleting an unpaid one-line order (its units back, with their ledger row and its event): at most 4', async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 100 });
    const placed = await oneLine(toolId)();
    const removed = await counted(
      () => runtime.request('DELETE', `/api/booking/dlt/${placed.data.insertedId}`, { token: alice }),
      200,
    );
    expect(removed).toBeLessThanOrEqual(4);
    expect((await runtime.request('GET', `/api/tools/${toolId}`)).data.availableQuantity).toBe(100);
    console.log(`statements: deleting a one-line order ${removed} (${runtime.db.kind})`);
  });

  // PGlite plans on the server's own thread: a statement planned again on every order cost 0.2-0.7 ms an order
  // (bench/before-after.md, 2026-12-06). Each PostgreSQL connection keeps its own plans, seen only from that
  // connection: every connection of the pool is asked at once (PGlite has one, and runs one transaction at a time).
  it('placing one-line orders plans its statements once', async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 1000, minimumOrderQuantity: 1 });
    for (let i = 0; i < 8; i++) await counted(oneLine(toolId));
    const sessions = runtime.db.pool?.options.max ?? 1;
    let asked = 0;
    let everyoneAsked!: () => void;
    const allAsked = new Promise<void>((resolve) => (everyoneAsked = resolve));
    const perSession = await Promise.all(
      Array.from({ length: sessions }, () =>
        runtime.db.transaction(async (tx) => {
          const plans = await tx.query<{ statement: string; custom: number; generic: number }>(
            `SELECT statement, custom_plans::int AS custom, generic_plans::int AS generic FROM pg_prepared_statements
             WHERE statement LIKE '%t.id = ANY($1) ORDER BY t.id FOR UPDATE OF t%'
                OR statement LIKE '%AS r(id, tool_id, quantity, product_name%'`,
          );
          // Holds its connection until every transaction has one: each asks a different connection.
          if (++asked === sessions) everyoneAsked();
          await allAsked;
          return plans;
        }),
      ),
    );
    const plans = perSession.flat();
    expect(plans.filter((p) => p.generic > 0).length).toBeGreaterThanOrEqual(2);
    for (const { statement, custom } of plans) expect(custom, statement).toBe(0);
  });
});
