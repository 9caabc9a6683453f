// Small shared steps for the API suites: make a tool, place and pay an order, fingerprint the data.
import { expect } from 'vitest';
import type { TestRuntime } from './harness';

export const ADDRESS = '12 Forge Lane, Dhaka 1207';
export const PHONE = '01712345678';
export const GOOD_CARD = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
export const DECLINED_CARD = { ...GOOD_CARD, number: '4000000000000002' };

let toolCount = 0;
/** A fresh tool made by an admin, so a test owns its stock (defaults: minimum 1, 50 available, $12.34). */
export async function makeTool(
  runtime: Pick<TestRuntime, 'request'>,
  adminToken: string,
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await runtime.request('POST', '/api/tools', {
    token: adminToken,
    json: {
      name: `Test hammer ${++toolCount}`,
      description: 'A hammer made for one test.',
      price: 12.34,
      minimumOrderQuantity: 1,
      availableQuantity: 50,
      img: '/images/tools/ball-peen-hammer.svg',
      ...over,
    },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data.insertedId;
}

/** Places an order and returns its id (the call must succeed). */
export async function placeOrder(runtime: TestRuntime, token: string, toolId: string, quantity = 1): Promise<string> {
  const res = await runtime.request('POST', '/api/booking', {
    token,
    json: { toolId, quantity, address: ADDRESS, phone: PHONE },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data.insertedId;
}

/** The sandbox flow up to a succeeded intent; returns the intent id (the transaction id). */
export async function confirmSandbox(runtime: TestRuntime, token: string, orderId: string): Promise<string> {
  const intent = await runtime.request('POST', '/api/create-payment-intent', { token, json: { orderId } });
  expect(intent.status, JSON.stringify(intent.data)).toBe(200);
  const confirmed = await runtime.request('POST', '/api/sandbox/confirm', {
    token,
    json: { clientSecret: intent.data.clientSecret, card: GOOD_CARD },
  });
  expect(confirmed.status, JSON.stringify(confirmed.data)).toBe(200);
  return confirmed.data.paymentIntent.id;
}

/** Pays an order through the whole sandbox flow; returns the transaction id. */
export async function payOrder(runtime: TestRuntime, token: string, orderId: string): Promise<string> {
  const transactionId = await confirmSandbox(runtime, token, orderId);
  const paid = await runtime.request('PUT', `/api/booking/makepayment/${orderId}`, {
    token,
    json: { appointment: orderId, transactionId },
  });
  expect(paid.status, JSON.stringify(paid.data)).toBe(200);
  return transactionId;
}

export async function stockOf(runtime: TestRuntime, toolId: string): Promise<number> {
  const [row] = await runtime.db.query<{ n: number }>('SELECT available_quantity AS n FROM tools WHERE id = $1', [
    toolId,
  ]);
  return row.n;
}

/** Sets a tool's stock and minimum directly in the database (and drops the API's catalogue cache). */
export async function setTool(runtime: TestRuntime, toolId: string, values: { minimum?: number; available?: number }) {
  if (values.minimum !== undefined)
    await runtime.db.query('UPDATE tools SET minimum_order_quantity = $2 WHERE id = $1', [toolId, values.minimum]);
  if (values.available !== undefined) {
    // A correction in the stock ledger too, so its balance still equals the stock.
    await runtime.db.query(
      `WITH old AS (SELECT available_quantity AS n FROM tools WHERE id = $1 FOR UPDATE),
         upd AS (UPDATE tools SET available_quantity = $2 WHERE id = $1)
       INSERT INTO stock_ledger (tool_id, delta, reason, balance) SELECT $1, $2 - n, 'correction', $2 FROM old WHERE n <> $2`,
      [toolId, values.available],
    );
  }
  runtime.tools.invalidate();
}

// Every stored fact; a payment's last card error is a record of an attempt, not data the caller wrote.
const TABLES: Record<string, string> = {
  users: 'SELECT * FROM users',
  tools: 'SELECT * FROM tools',
  orders: 'SELECT * FROM orders',
  payments: 'SELECT id, order_id, gateway, amount_cents, status, client_secret FROM payments',
  reviews: 'SELECT * FROM reviews',
  contact_messages: 'SELECT * FROM contact_messages',
  // A refused call writes no event either (and so sends no email).
  events: 'SELECT seq, type, subject FROM events',
  stock_ledger: 'SELECT * FROM stock_ledger',
  quotes: 'SELECT * FROM quotes',
  invoices: 'SELECT number FROM invoices',
  refunds: 'SELECT id, state FROM refunds',
  webhook_endpoints: 'SELECT id, url, events, state FROM webhook_endpoints',
  webhook_deliveries: 'SELECT id, state, attempts, next_at FROM webhook_deliveries',
};

/** A fingerprint of every table (row count and a hash of the rows), to prove a refused call wrote nothing. */
export async function snapshot(runtime: TestRuntime): Promise<Record<string, string>> {
  // One query for all tables, and an order-free sum of row hashes (sorting the rows costs twice as much
  // on PGlite): the bad-input sweep takes two snapshots per case.
  const columns = Object.entries(TABLES).map(
    ([table, select]) =>
      `(SELECT count(*) || ':' || coalesce(sum(hashtext(t::text)::bigint), 0) FROM (${select}) t) AS ${table}`,
  );
  const [row] = await runtime.db.query<Record<string, string>>(`SELECT ${columns.join(', ')}`);
  return row;
}

/** Asserts the JSON error shape every refusal must have. */
export function expectApiError(res: { status: number; data: any }, status?: number) {
  if (status !== undefined) expect(res.status, JSON.stringify(res.data)).toBe(status);
  expect(res.status, JSON.stringify(res.data)).toBeGreaterThanOrEqual(400);
  expect(res.status, JSON.stringify(res.data)).toBeLessThan(500);
  expect(res.data, `status ${res.status}`).toMatchObject({
    error: { code: expect.any(String), message: expect.any(String) },
  });
}

/**
 * The stock ledger's invariant, for every tool of the store: its newest row's balance, and the sum of
 * its movements, equal the units for sale. Run after the race and rush suites (afterAll).
 */
export async function expectStockLedgerBalanced(runtime: Pick<TestRuntime, 'db'>): Promise<void> {
  const off = await runtime.db.query<{ id: string; available: number; balance: number | null; sum: number }>(
    `SELECT t.id, t.available_quantity AS available,
       (SELECT balance FROM stock_ledger l WHERE l.tool_id = t.id ORDER BY seq DESC LIMIT 1) AS balance,
       (SELECT coalesce(sum(delta), 0)::int FROM stock_ledger l WHERE l.tool_id = t.id) AS sum
     FROM tools t`,
  );
  const wrong = off.filter((t) => (t.balance ?? 0) !== t.available || t.sum !== t.available);
  expect(wrong, 'tools whose ledger does not add up to their stock').toEqual([]);
  expect(off.length).toBeGreaterThan(0);
}
