// Migration 7: orders placed before carts (one tool each) become one-line orders, unchanged to the buyer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../../src/server/caching/changes';
import { type Db } from '../../src/server/db/client';
import { openDb } from '../../src/server/db/open';
import { migrate } from '../../src/server/db/migrate';
import { migrations } from '../../src/server/db/migrations';
import { ordersService } from '../../src/server/orders/orders.service';
import { orderJson } from '../../src/server/orders/order-rows';
import { toolsService } from '../../src/server/tools/tools.service';

const BEFORE_LINES = 6;
const TOOL = 'a'.repeat(24);
let db: Db;

beforeAll(async () => {
  // The schema as it was before order lines, with orders in it.
  db = await openDb({ memory: true });
  await db.exec(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (let v = 1; v <= BEFORE_LINES; v++) {
    await db.exec(migrations[v - 1]);
    await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v]);
  }
  await db.query(
    `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity, stock_version)
    VALUES ($1, 'Old hammer', 'Kept.', '/x.svg', 1250, 1, 3, 2)`,
    [TOOL],
  );
  const insert = `INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, user_name, email, address, phone, expires_at, stock_version, payment)
    VALUES ($1, $2, $3, $4, $5, 'Old Buyer', 'old@test.example', 'Old Street 1', '01712345678', now() + interval '1 hour', $6, $7)`;
  await db.query(insert, ['b'.repeat(24), TOOL, 'Old hammer', 1250, 4, 2, 'unpaid']);
  // A tool deleted since, and a total above what an integer holds (placed before the cap).
  await db.query(insert, ['c'.repeat(24), null, 'Gone saw', 99_999_999, 30, 0, 'paid']);
  expect(await migrate(db)).toBe(migrations.length - BEFORE_LINES);
});
afterAll(() => db.close());

describe('migration 7: one line per existing order', () => {
  it('each order gets one line with its tool, name, unit price, quantity and stock version, and its total', async () => {
    expect(
      await db.query(
        'SELECT order_id, line, tool_id, product_name, unit_price_cents, quantity, stock_version FROM order_items ORDER BY order_id',
      ),
    ).toEqual([
      {
        order_id: 'b'.repeat(24),
        line: 1,
        tool_id: TOOL,
        product_name: 'Old hammer',
        unit_price_cents: 1250,
        quantity: 4,
        stock_version: 2,
      },
      {
        order_id: 'c'.repeat(24),
        line: 1,
        tool_id: null,
        product_name: 'Gone saw',
        unit_price_cents: 99_999_999,
        quantity: 30,
        stock_version: 0,
      },
    ]);
    const orders = ordersService(db, toolsService(db, memoryBus()), 30 * 60_000, () => new Date());
    const old = orderJson((await orders.getRow('b'.repeat(24)))!);
    expect(old).toMatchObject({ toolId: TOOL, productName: 'Old hammer', price: 12.5, quantity: 4, totalCents: 5000 });
    expect(old.items).toEqual([{ toolId: TOOL, productName: 'Old hammer', price: 12.5, quantity: 4 }]);
    expect(orderJson((await orders.getRow('c'.repeat(24)))!).totalCents).toBe(2_999_999_970);
  });

  it('a migrated unpaid order gives its units back through its line when deleted', async () => {
    const orders = ordersService(db, toolsService(db, memoryBus()), 30 * 60_000, () => new Date());
    await orders.remove({ email: 'admin@test.example', role: 'admin', name: 'Admin', uid: 'x' }, 'b'.repeat(24));
    expect((await db.query('SELECT available_quantity FROM tools WHERE id = $1', [TOOL]))[0]).toEqual({
      available_quantity: 7,
    });
  });
});

describe('migration 11: a database that recorded slot 7 while it was a placeholder', () => {
  it('gets the order lines and totals all the same', async () => {
    const old = await openDb({ memory: true });
    try {
      await old.exec(
        'CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (let v = 1; v <= 10; v++) {
        await old.exec(v === 7 || v > BEFORE_LINES ? 'SELECT 1;' : migrations[v - 1]);
        await old.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v]);
      }
      await old.query(
        `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
        VALUES ($1, 'Old hammer', 'Kept.', '/x.svg', 1250, 1, 3)`,
        [TOOL],
      );
      await old.query(
        `INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, user_name, email, address, phone, expires_at)
        VALUES ($1, $2, 'Old hammer', 1250, 2, 'B', 'b@test.example', 'A', '01712345678', now())`,
        ['d'.repeat(24), TOOL],
      );
      await migrate(old);
      expect(await old.query('SELECT order_id, quantity FROM order_items')).toEqual([
        { order_id: 'd'.repeat(24), quantity: 2 },
      ]);
      expect((await old.query<{ total_cents: number }>('SELECT total_cents FROM orders'))[0].total_cents).toEqual(2500);
    } finally {
      await old.close();
    }
  });
});
