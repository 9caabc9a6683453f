// The start-up warm-up (issue 30): a rush's worth of orders placed and rolled back before the server says
// ready. It must leave nothing behind: no tool, order, line, ledger row, event or email, and no stock moved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore } from './harness';

let store: TestStore;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(() => store.close());

const TABLES = ['tools', 'orders', 'order_items', 'stock_ledger', 'events', 'event_deliveries', 'emails'];

async function snapshot() {
  const counts: Record<string, number> = {};
  for (const table of TABLES)
    counts[table] = (await store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const [{ stock }] = await store.db.query<{ stock: number }>('SELECT coalesce(sum(available_quantity), 0)::int AS stock FROM tools');
  return { counts, stock };
}

describe('the warm-up before ready', () => {
  it('places and rolls back its orders, leaving the store exactly as it was', async () => {
    const before = await snapshot();
    await store.orders.warmUp(2);
    expect(await snapshot()).toEqual(before);
    await store.outbox.run();
    expect(await snapshot()).toEqual(before);
  });
});
