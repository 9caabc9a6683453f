// Issue 26, the trade: price breaks priced by the server at placing (the break edges), pack sizes,
// quantities that need a quote, Edit product (PUT /tools/{id}), low-stock levels per tool and the
// stock ledger (every movement with its reason, and GET /tools/{id}/ledger).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import { ADMIN, ALICE, BOB, createTestRuntime, type TestRuntime } from './harness';
import {
  ADDRESS,
  PHONE,
  expectApiError,
  expectStockLedgerBalanced,
  makeTool,
  payOrder,
  placeOrder,
  snapshot,
  stockOf,
} from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let bob: string;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  bob = await runtime.tokenFor(BOB);
});
afterAll(async () => {
  await expectStockLedgerBalanced(runtime);
  await runtime.close();
});

function refusedWith(res: { status: number; data: { error: { message: string } } }, status: number, message: string) {
  expectApiError(res, status);
  expect(res.data.error.message).toBe(message);
}

const BREAKS = [
  { minQuantity: 100, price: 11.2 },
  { minQuantity: 500, price: 9.9 },
];
const book = (token: string, toolId: string, quantity: number) =>
  runtime.request('POST', '/api/booking', { token, json: { toolId, quantity, address: ADDRESS, phone: PHONE } });
const cart = (token: string, items: { toolId: string; quantity: number }[]) =>
  runtime.request('POST', '/api/orders', { token, json: { items, address: ADDRESS, phone: PHONE } });
const order = async (id: string) => (await runtime.request('GET', `/api/booking/${id}`, { token: admin })).data;
const ledger = async (toolId: string, query = '') =>
  (await runtime.request('GET', `/api/tools/${toolId}/ledger${query}`, { token: admin })).data;

describe('price breaks', () => {
  let toolId: string;
  beforeAll(async () => {
    toolId = await makeTool(runtime, admin, {
      price: 12.4,
      minimumOrderQuantity: 10,
      availableQuantity: 100_000,
      priceBreaks: BREAKS,
    });
  });

  it('the tool shows its breaks, pack size and quote threshold (defaults for a spec tool)', async () => {
    expect((await runtime.request('GET', `/api/tools/${toolId}`)).data).toMatchObject({
      priceBreaks: BREAKS,
      packSize: 1,
      quoteAbove: null,
    });
    const plain = await makeTool(runtime, admin);
    expect((await runtime.request('GET', `/api/tools/${plain}`)).data).toMatchObject({
      priceBreaks: [],
      packSize: 1,
      quoteAbove: null,
    });
  });

  it.each([
    [10, 1240],
    [99, 1240],
    [100, 1120],
    [101, 1120],
    [499, 1120],
    [500, 990],
    [501, 990],
  ])('%i units are priced at %i cents each (POST /booking), whatever the client says', async (quantity, unitCents) => {
    const res = await runtime.request('POST', '/api/booking', {
      token: alice,
      json: { toolId, quantity, address: ADDRESS, phone: PHONE, price: 0.01, totalCents: 1 },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const placed = await order(res.data.insertedId);
    expect(placed).toMatchObject({
      price: unitCents / 100,
      totalCents: unitCents * quantity,
      items: [{ price: unitCents / 100, quantity }],
    });
    await runtime.request('DELETE', `/api/booking/dlt/${res.data.insertedId}`, { token: alice });
  });

  it('a cart prices each line at its own break', async () => {
    const other = await makeTool(runtime, admin, {
      price: 5,
      availableQuantity: 1000,
      priceBreaks: [{ minQuantity: 50, price: 4 }],
    });
    const res = await cart(alice, [
      { toolId, quantity: 100 },
      { toolId: other, quantity: 49 },
    ]);
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const placed = await order(res.data.insertedId);
    expect(placed.items.map((i: { price: number }) => i.price)).toEqual([11.2, 5]);
    expect(placed.totalCents).toBe(100 * 1120 + 49 * 500);
    await runtime.request('DELETE', `/api/booking/dlt/${res.data.insertedId}`, { token: alice });
  });

  it('a placed order keeps its unit price when the breaks change; the next order gets the new ones', async () => {
    const tool = await makeTool(runtime, admin, {
      price: 20,
      availableQuantity: 1000,
      priceBreaks: [{ minQuantity: 10, price: 18 }],
    });
    const first = await placeOrder(runtime, alice, tool, 10);
    const edit = await runtime.request('PUT', `/api/tools/${tool}`, {
      token: admin,
      json: {
        name: 'Repriced',
        description: 'd',
        img: '/images/tools/anvil.svg',
        price: 20,
        minimumOrderQuantity: 1,
        priceBreaks: [{ minQuantity: 10, price: 15 }],
      },
    });
    expect(edit.status, JSON.stringify(edit.data)).toBe(200);
    const second = await placeOrder(runtime, bob, tool, 10);
    expect((await order(first)).items[0].price).toBe(18);
    expect((await order(second)).items[0]).toMatchObject({ price: 15, productName: 'Repriced' });
    // Paying charges what was placed: the invoice and the payment follow the order's total.
    await payOrder(runtime, alice, first);
    expect((await order(first)).totalCents).toBe(180_00);
  });

  it('the schema refuses breaks that do not go up, do not get cheaper, start at the minimum or number more than 5', async () => {
    const bad = async (over: Record<string, unknown>, field: string) => {
      const res = await runtime.request('POST', '/api/tools', {
        token: admin,
        json: {
          name: 'Bad breaks',
          description: 'd',
          img: '/images/tools/anvil.svg',
          price: 10,
          minimumOrderQuantity: 10,
          availableQuantity: 5,
          ...over,
        },
      });
      expectApiError(res, 400);
      expect(
        Object.keys(res.data.error.fields ?? {}).some((k) => k === field || k.startsWith(`${field}.`)),
        JSON.stringify(res.data),
      ).toBe(true);
    };
    await bad({ priceBreaks: [{ minQuantity: 10, price: 9 }] }, 'priceBreaks');
    await bad(
      {
        priceBreaks: [
          { minQuantity: 20, price: 9 },
          { minQuantity: 20, price: 8 },
        ],
      },
      'priceBreaks',
    );
    await bad(
      {
        priceBreaks: [
          { minQuantity: 20, price: 9 },
          { minQuantity: 30, price: 9 },
        ],
      },
      'priceBreaks',
    );
    await bad({ priceBreaks: [{ minQuantity: 20, price: 10 }] }, 'priceBreaks');
    await bad(
      { priceBreaks: Array.from({ length: 6 }, (_, i) => ({ minQuantity: 20 + i, price: 9 - i })) },
      'priceBreaks',
    );
    await bad({ priceBreaks: [{ minQuantity: 20, price: -1 }] }, 'priceBreaks');
    await bad({ priceBreaks: 'cheap' }, 'priceBreaks');
    await bad({ packSize: 3 }, 'minimumOrderQuantity');
    await bad({ packSize: 0 }, 'packSize');
    await bad({ quoteAbove: 5 }, 'quoteAbove');
    await bad({ lowStockUnits: -1 }, 'lowStockUnits');
  });
});

describe('pack sizes and quotes above a quantity', () => {
  it(`quantities must be whole packs: others are refused with '${messages.quantityNotMultiple(12)}' (422), writing nothing`, async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 24, packSize: 12, availableQuantity: 500 });
    const before = await snapshot(runtime);
    for (const quantity of [25, 30, 35]) {
      const res = await book(alice, toolId, quantity);
      refusedWith(res, 422, messages.quantityNotMultiple(12));
      expect(res.data.error.fields).toEqual({ quantity: messages.quantityNotMultiple(12) });
    }
    const res = await cart(alice, [{ toolId, quantity: 30 }]);
    expectApiError(res, 422);
    expect(res.data.error.message).toContain(messages.quantityNotMultiple(12));
    expect(await snapshot(runtime)).toEqual(before);
    // Below the minimum, the spec's message still comes first.
    refusedWith(await book(alice, toolId, 12), 422, messages.quantityBelowMinimum);
    expect((await book(alice, toolId, 36)).status).toBe(201);
    expect(await stockOf(runtime, toolId)).toBe(464);
  });

  it('above quoteAbove a quantity is refused with the quote message; at it, it is ordered', async () => {
    const toolId = await makeTool(runtime, admin, {
      minimumOrderQuantity: 1,
      availableQuantity: 5000,
      quoteAbove: 1000,
    });
    refusedWith(await book(bob, toolId, 1001), 422, messages.quantityNeedsQuote(1000));
    const res = await cart(bob, [
      { toolId, quantity: 1001 },
      { toolId: await makeTool(runtime, admin), quantity: 1 },
    ]);
    expectApiError(res, 422);
    expect(res.data.error.message).toContain(messages.quantityNeedsQuote(1000));
    expect((await book(bob, toolId, 1000)).status).toBe(201);
  });
});

describe('Edit product (PUT /tools/{id})', () => {
  it('changes every field but the stock, writes a tool.updated audit event, and refuses bad input and unknown tools', async () => {
    const toolId = await makeTool(runtime, admin, { name: 'Edit me', availableQuantity: 40 });
    const body = {
      name: 'Edited',
      description: 'New words.',
      img: '/images/tools/anvil.svg',
      price: 15,
      minimumOrderQuantity: 6,
      packSize: 6,
      quoteAbove: 600,
      lowStockUnits: 30,
      priceBreaks: [{ minQuantity: 60, price: 14 }],
      availableQuantity: 999_999,
    };
    const res = await runtime.request('PUT', `/api/tools/${toolId}`, { token: admin, json: body });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect((await runtime.request('GET', `/api/tools/${toolId}`)).data).toEqual({
      _id: toolId,
      name: 'Edited',
      description: 'New words.',
      img: '/images/tools/anvil.svg',
      price: 15,
      minimumOrderQuantity: 6,
      availableQuantity: 40,
      packSize: 6,
      quoteAbove: 600,
      priceBreaks: [{ minQuantity: 60, price: 14 }],
    });
    // Edit product loads the tool with its own low-stock level (admins only), so saving keeps it.
    expect((await runtime.request('GET', `/api/tools/${toolId}/edit`, { token: admin })).data).toMatchObject({
      ownLowStockUnits: 30,
      lowStockUnits: 30,
    });
    expectApiError(await runtime.request('GET', `/api/tools/${toolId}/edit`, { token: alice }), 403);
    expectApiError(await runtime.request('GET', `/api/tools/${'0'.repeat(24)}/edit`, { token: admin }), 404);
    const [event] = await runtime.db.query<{
      actor: string;
      data: { before: { name: string }; after: { name: string; packSize: number } };
    }>(`SELECT actor, data FROM events WHERE type = 'tool.updated' AND subject = $1`, [toolId]);
    expect(event).toMatchObject({
      actor: ADMIN,
      data: { before: { name: 'Edit me' }, after: { name: 'Edited', packSize: 6 } },
    });
    expect(
      (await runtime.request('GET', '/api/audit?type=tool.updated', { token: admin })).data.items[0],
    ).toMatchObject({
      type: 'tool.updated',
    });

    expectApiError(
      await runtime.request('PUT', `/api/tools/${toolId}`, { token: admin, json: { ...body, price: 0 } }),
      400,
    );
    expectApiError(
      await runtime.request('PUT', `/api/tools/${toolId}`, {
        token: admin,
        json: { ...body, minimumOrderQuantity: 7 },
      }),
      400,
    );
    expectApiError(await runtime.request('PUT', `/api/tools/${'0'.repeat(24)}`, { token: admin, json: body }), 404);
    expectApiError(await runtime.request('PUT', `/api/tools/${toolId}`, { token: alice, json: body }), 403);
    expectApiError(await runtime.request('PUT', `/api/tools/${toolId}`, { json: body }), 401);
  });
});

describe('low stock', () => {
  it("a tool's own level decides the flag, the sort and the one email per crossing", async () => {
    const toolId = await makeTool(runtime, admin, { name: 'Low line', availableQuantity: 50, lowStockUnits: 20 });
    const healthy = await makeTool(runtime, admin, { name: 'Plenty', availableQuantity: 50, lowStockUnits: 5 });
    const page = async (sort: string) =>
      (await runtime.request('GET', `/api/tools?limit=100&sort=${sort}`, { token: admin })).data.items;
    expect((await page('newest')).find((t: { _id: string }) => t._id === toolId)).toMatchObject({
      lowStockUnits: 20,
      lowStock: false,
    });
    await placeOrder(runtime, alice, toolId, 31);
    await placeOrder(runtime, alice, healthy, 31);
    const lowFirst = await page('low-stock');
    expect(lowFirst.find((t: { _id: string }) => t._id === toolId)).toMatchObject({
      lowStock: true,
      availableQuantity: 19,
    });
    const flags = lowFirst.map((t: { lowStock: boolean }) => t.lowStock);
    expect(flags.indexOf(false)).toBeGreaterThan(flags.lastIndexOf(true));
    expect(lowFirst.find((t: { _id: string }) => t._id === healthy).lowStock).toBe(false);
    await placeOrder(runtime, bob, toolId, 5);
    const events = await runtime.db.query<{ data: { threshold: number } }>(
      `SELECT data FROM events WHERE type = 'stock.low' AND subject = $1`,
      [toolId],
    );
    expect(events).toEqual([{ data: expect.objectContaining({ threshold: 20, availableQuantity: 19 }) }]);
    // The public tool does not carry the shop's levels.
    expect((await runtime.request('GET', `/api/tools/${toolId}`)).data).not.toHaveProperty('lowStockUnits');
    expectApiError(await runtime.request('GET', '/api/tools?limit=10&sort=cheapest', { token: admin }), 400);
    // Pages of the low-stock order follow on without a repeat or a gap.
    const all = await page('low-stock');
    const seen: string[] = [];
    let cursor = '';
    do {
      const res = (
        await runtime.request('GET', `/api/tools?limit=3&sort=low-stock${cursor && `&cursor=${cursor}`}`, {
          token: admin,
        })
      ).data;
      seen.push(...res.items.map((t: { _id: string }) => t._id));
      cursor = res.nextCursor ?? '';
    } while (cursor);
    expect(seen).toEqual(all.map((t: { _id: string }) => t._id));
    // Only admins see the shop's levels or sort by them; anyone else pages the public fields.
    expect((await runtime.request('GET', '/api/tools?limit=5', { token: alice })).data.items[0]).not.toHaveProperty(
      'lowStock',
    );
    expect((await runtime.request('GET', '/api/tools?limit=5')).data.items[0]).not.toHaveProperty('lowStockUnits');
    expectApiError(await runtime.request('GET', '/api/tools?limit=5&sort=low-stock', { token: alice }), 403);
  });
});

describe('the stock ledger', () => {
  it('records every movement with its reason, order, actor and the balance after it', async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 40 });
    const sold = await placeOrder(runtime, alice, toolId, 5); // sale, then paid
    await payOrder(runtime, alice, sold);
    const deleted = await placeOrder(runtime, bob, toolId, 3); // sale, then hold released by the buyer
    expect((await runtime.request('DELETE', `/api/booking/dlt/${deleted}`, { token: bob })).status).toBe(200);
    const refund = await runtime.request('PUT', `/api/booking/refund/${sold}`, {
      token: admin,
      json: { restock: true, amount: 10 },
    });
    expect(refund.status, JSON.stringify(refund.data)).toBe(200);
    expect(
      (await runtime.request('PUT', `/api/tool/update/${toolId}`, { token: admin, json: { availableQuantity: 100 } }))
        .status,
    ).toBe(200);
    const page = await ledger(toolId);
    expect(page.total).toBe(6);
    expect(page.items.map((m: Record<string, unknown>) => [m.reason, m.delta, m.balance, m.orderId, m.actor])).toEqual([
      ['admin restock', 60, 100, null, ADMIN],
      ['refund restock', 5, 40, sold, ADMIN],
      ['hold released', 3, 35, deleted, BOB],
      ['sale', -3, 32, deleted, BOB],
      ['sale', -5, 35, sold, ALICE],
      ['admin restock', 40, 40, null, ADMIN],
    ]);
    expect(page.items[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('pages newest first with a cursor, is admin only, and 404s an unknown tool', async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 100 });
    for (let i = 0; i < 4; i++) await placeOrder(runtime, alice, toolId, 1);
    const first = await ledger(toolId, '?limit=2');
    expect(first.items.map((m: { balance: number }) => m.balance)).toEqual([96, 97]);
    const second = await ledger(toolId, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((m: { balance: number }) => m.balance)).toEqual([98, 99]);
    const third = await ledger(toolId, `?limit=2&cursor=${second.nextCursor}`);
    expect(third).toMatchObject({ items: [{ balance: 100, reason: 'admin restock' }], nextCursor: null, total: 5 });
    expectApiError(await runtime.request('GET', `/api/tools/${toolId}/ledger`, { token: alice }), 403);
    expectApiError(await runtime.request('GET', `/api/tools/${toolId}/ledger`), 401);
    expectApiError(await runtime.request('GET', `/api/tools/${'0'.repeat(24)}/ledger`, { token: admin }), 404);
    expectApiError(await runtime.request('GET', `/api/tools/nope/ledger`, { token: admin }), 400);
  });

  it('a rush of one-line orders in batches writes one sale per order, balances in arrival order', async () => {
    const toolId = await makeTool(runtime, admin, {
      availableQuantity: 60,
      priceBreaks: [{ minQuantity: 3, price: 10 }],
    });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => book(i % 2 ? alice : bob, toolId, 1 + (i % 3))),
    );
    const placed = results.filter((r) => r.status === 201);
    const rows = await runtime.db.query<{ delta: number; balance: number; order_id: string | null }>(
      `SELECT delta, balance, order_id FROM stock_ledger WHERE tool_id = $1 ORDER BY seq`,
      [toolId],
    );
    const sales = rows.filter((r) => r.order_id);
    expect(sales).toHaveLength(placed.length);
    let balance = 60;
    for (const row of sales) {
      balance += row.delta;
      expect(row.balance).toBe(balance);
    }
    expect(await stockOf(runtime, toolId)).toBe(balance);
    // Each order of 3 units was priced at the break.
    for (const r of placed) {
      const o = await order(r.data.insertedId);
      expect(o.price).toBe(o.quantity >= 3 ? 10 : 12.34);
    }
  });
});
