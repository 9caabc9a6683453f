// POST /orders: a cart becomes one order with several lines, all or nothing, at the database's prices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import { ADMIN, ALICE, BOB, createTestRuntime, type TestRuntime } from './harness';
import {
  ADDRESS,
  PHONE,
  expectApiError,
  makeTool,
  payOrder,
  placeOrder,
  snapshot,
  stockOf,
  expectStockLedgerBalanced,
} from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let bob: string;

type Line = { toolId: string; quantity: number };
const checkout = (token: string, items: Line[], extra: object = {}) =>
  runtime.request('POST', '/api/orders', { token, json: { items, address: ADDRESS, phone: PHONE, ...extra } });
const order = async (id: string, token = admin) => (await runtime.request('GET', `/api/booking/${id}`, { token })).data;
const tool = async (id: string) => (await runtime.request('GET', `/api/tools/${id}`)).data;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  bob = await runtime.tokenFor(BOB);
});
afterAll(async () => {
  // Whatever the races above did, every unit is accounted for in the stock ledger.
  await expectStockLedgerBalanced(runtime);
  await runtime.close();
});

describe('placing a cart', () => {
  it('one order with every line, names and prices from the database, each tool’s stock taken by its line', async () => {
    const a = await makeTool(runtime, admin, {
      name: 'Cart saw',
      price: 20.5,
      minimumOrderQuantity: 2,
      availableQuantity: 10,
    });
    const b = await makeTool(runtime, admin, { name: 'Cart drill', price: 99.99, availableQuantity: 5 });
    const c = await makeTool(runtime, admin, { name: 'Cart level', price: 3, availableQuantity: 7 });
    const res = await checkout(
      alice,
      [
        { toolId: a, quantity: 2, price: 0.01, productName: 'Free' } as Line,
        { toolId: b, quantity: 1 },
        { toolId: c, quantity: 7 },
      ],
      { price: 1, totalCents: 1, email: BOB, payment: 'paid' },
    );
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data).toEqual({ acknowledged: true, insertedId: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const placed = await order(res.data.insertedId, alice);
    expect(placed).toMatchObject({
      toolId: null,
      productName: '3 tools',
      quantity: 10,
      totalCents: 4100 + 9999 + 2100,
      price: 161.99,
      email: ALICE,
      payment: 'unpaid',
      items: [
        { toolId: a, productName: 'Cart saw', price: 20.5, quantity: 2 },
        { toolId: b, productName: 'Cart drill', price: 99.99, quantity: 1 },
        { toolId: c, productName: 'Cart level', price: 3, quantity: 7 },
      ],
    });
    expect([await stockOf(runtime, a), await stockOf(runtime, b), await stockOf(runtime, c)]).toEqual([8, 4, 0]);
    expect((await tool(c)).availableQuantity).toBe(0);
    // The buyer's list shows the lines too.
    const mine = (await runtime.request('GET', `/api/booking/email/${ALICE}`, { token: alice })).data;
    const listed = Array.isArray(mine) ? mine : mine.items;
    expect(listed.find((o: { _id: string }) => o._id === res.data.insertedId).items).toHaveLength(3);
  });

  it('a one-line order via POST /booking has the same lines shape, with the spec’s top-level fields', async () => {
    const id = await makeTool(runtime, admin, { name: 'Single', price: 4.25 });
    const placed = await order(await placeOrder(runtime, alice, id, 3), alice);
    expect(placed).toMatchObject({ toolId: id, productName: 'Single', price: 4.25, quantity: 3, totalCents: 1275 });
    expect(placed.items).toEqual([{ toolId: id, productName: 'Single', price: 4.25, quantity: 3 }]);
  });

  it('all or nothing: a line above the stock is refused (422) naming its tool with the spec message; nothing is taken', async () => {
    const a = await makeTool(runtime, admin, { availableQuantity: 10 });
    const b = await makeTool(runtime, admin, { name: 'Scarce clamp', availableQuantity: 2 });
    const before = await snapshot(runtime);
    const res = await checkout(alice, [
      { toolId: a, quantity: 5 },
      { toolId: b, quantity: 3 },
    ]);
    expectApiError(res, 422);
    expect(res.data.error.message).toBe(messages.cartLineRefused('Scarce clamp', messages.quantityAboveAvailable));
    expect(res.data.error.fields).toEqual({ 'items.1.quantity': messages.quantityAboveAvailable });
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('a line below its minimum is refused with the spec message, naming the tool', async () => {
    const a = await makeTool(runtime, admin, { name: 'Bulk nails', minimumOrderQuantity: 10, availableQuantity: 100 });
    const b = await makeTool(runtime, admin);
    const before = await snapshot(runtime);
    const res = await checkout(alice, [
      { toolId: b, quantity: 1 },
      { toolId: a, quantity: 9 },
    ]);
    expectApiError(res, 422);
    expect(res.data.error.message).toBe(messages.cartLineRefused('Bulk nails', messages.quantityBelowMinimum));
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('a tool that no longer exists is refused (422) and nothing is taken', async () => {
    const a = await makeTool(runtime, admin);
    const before = await snapshot(runtime);
    const res = await checkout(alice, [
      { toolId: a, quantity: 1 },
      { toolId: 'f'.repeat(24), quantity: 1 },
    ]);
    expectApiError(res, 422);
    expect(res.data.error).toMatchObject({
      message: messages.cartToolGone,
      fields: { 'items.1.toolId': messages.cartToolGone },
    });
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('the order total is capped at $999,999.99 over all lines (422), nothing taken', async () => {
    const a = await makeTool(runtime, admin, { price: 600_000, availableQuantity: 5 });
    const b = await makeTool(runtime, admin, { price: 500_000, availableQuantity: 5 });
    const before = await snapshot(runtime);
    const res = await checkout(alice, [
      { toolId: a, quantity: 1 },
      { toolId: b, quantity: 1 },
    ]);
    expectApiError(res, 422);
    expect(res.data.error.message).toBe(messages.orderTotalTooHigh);
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('the same tool twice, an empty cart or a bad line is a 400', async () => {
    const a = await makeTool(runtime, admin);
    expectApiError(
      await checkout(alice, [
        { toolId: a, quantity: 1 },
        { toolId: a, quantity: 2 },
      ]),
      400,
    );
    expectApiError(await checkout(alice, []), 400);
    expectApiError(await checkout(alice, [{ toolId: a, quantity: 0 }]), 400);
  });
});

describe('paying and letting go of a cart order', () => {
  it('one payment for the order’s total; paid once', async () => {
    const a = await makeTool(runtime, admin, { price: 10 });
    const b = await makeTool(runtime, admin, { price: 2.5 });
    const res = await checkout(alice, [
      { toolId: a, quantity: 2 },
      { toolId: b, quantity: 4 },
    ]);
    const intent = await runtime.request('POST', '/api/create-payment-intent', {
      token: alice,
      json: { orderId: res.data.insertedId },
    });
    expect(intent).toMatchObject({ status: 200, data: { amountCents: 3000 } });
    const transactionId = await payOrder(runtime, alice, res.data.insertedId);
    expect(await order(res.data.insertedId, alice)).toMatchObject({ payment: 'paid', transactionId });
  });

  it('deleting an unpaid cart order gives every line back', async () => {
    const a = await makeTool(runtime, admin, { availableQuantity: 10 });
    const b = await makeTool(runtime, admin, { availableQuantity: 10 });
    const res = await checkout(alice, [
      { toolId: a, quantity: 3 },
      { toolId: b, quantity: 4 },
    ]);
    expect([await stockOf(runtime, a), await stockOf(runtime, b)]).toEqual([7, 6]);
    expect((await runtime.request('DELETE', `/api/booking/dlt/${res.data.insertedId}`, { token: alice })).status).toBe(
      200,
    );
    expect([await stockOf(runtime, a), await stockOf(runtime, b)]).toEqual([10, 10]);
  });

  it('a restocked line keeps the admin’s number when the hold expires; the other line comes back', async () => {
    const a = await makeTool(runtime, admin, { availableQuantity: 10 });
    const b = await makeTool(runtime, admin, { availableQuantity: 10 });
    await checkout(bob, [
      { toolId: a, quantity: 3 },
      { toolId: b, quantity: 4 },
    ]);
    expect(
      (await runtime.request('PUT', `/api/tool/update/${a}`, { token: admin, json: { availableQuantity: 20 } })).status,
    ).toBe(200);
    runtime.advance(31 * 60_000);
    expect(await runtime.checkout.expireHolds()).toBeGreaterThan(0);
    expect([await stockOf(runtime, a), await stockOf(runtime, b)]).toEqual([20, 10]);
  });
});

describe('carts racing', () => {
  it('two carts for the last units of one tool: one gets them whole, the other 422 and none of its other lines is taken', async () => {
    for (let round = 0; round < 5; round++) {
      const last = await makeTool(runtime, admin, { name: `Last units ${round}`, availableQuantity: 5 });
      const x = await makeTool(runtime, admin, { availableQuantity: 10 });
      const y = await makeTool(runtime, admin, { availableQuantity: 10 });
      const [first, second] = await Promise.all([
        checkout(alice, [
          { toolId: x, quantity: 2 },
          { toolId: last, quantity: 5 },
        ]),
        checkout(bob, [
          { toolId: last, quantity: 5 },
          { toolId: y, quantity: 3 },
        ]),
      ]);
      const statuses = [first.status, second.status].sort();
      expect(statuses, JSON.stringify([first.data, second.data])).toEqual([201, 422]);
      const loser = first.status === 422 ? first : second;
      expect(loser.data.error.message).toBe(
        messages.cartLineRefused(`Last units ${round}`, messages.quantityAboveAvailable),
      );
      expect(await stockOf(runtime, last)).toBe(0);
      // The winner's other line is taken, the loser's is not.
      expect([await stockOf(runtime, x), await stockOf(runtime, y)]).toEqual(first.status === 201 ? [8, 10] : [10, 7]);
      const winner = first.status === 201 ? first : second;
      expect((await order(winner.data.insertedId)).items.find((i: Line) => i.toolId === last).quantity).toBe(5);
    }
  });

  it('carts naming the same tools in opposite orders all go through, without a deadlock', async () => {
    const db = runtime.db;
    const transaction = db.transaction.bind(db);
    let runs = 0;
    // A deadlock makes the client run the transaction again: count every run of a callback.
    db.transaction = ((fn: Parameters<typeof db.transaction>[0]) =>
      transaction((tx) => {
        runs++;
        return fn(tx);
      })) as typeof db.transaction;
    try {
      const tools = await Promise.all(
        Array.from({ length: 4 }, () => makeTool(runtime, admin, { availableQuantity: 1000 })),
      );
      const forward = tools.map((toolId) => ({ toolId, quantity: 1 }));
      const backward = [...forward].reverse();
      runs = 0;
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => checkout(i % 2 ? alice : bob, i % 2 ? forward : backward)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(40).fill(201));
      expect(runs).toBe(40);
      for (const toolId of tools) expect(await stockOf(runtime, toolId)).toBe(960);
    } finally {
      db.transaction = transaction;
    }
  });
});

describe('limits shared with POST /booking', () => {
  it('the unpaid-order limit and the rate limit count cart orders too', async () => {
    const limited = await createTestRuntime({ env: { MAX_UNPAID_ORDERS: '2', BOOKING_RATE_LIMIT: '3' } });
    try {
      const boss = await limited.tokenFor(ADMIN);
      const buyer = await limited.tokenFor('cart-limit@test.example');
      const toolId = await makeTool(limited, boss);
      const cart = (token: string) =>
        limited.request('POST', '/api/orders', {
          token,
          json: { items: [{ toolId, quantity: 1 }], address: ADDRESS, phone: PHONE },
        });
      expect((await cart(buyer)).status).toBe(201);
      await placeOrder(limited, buyer, toolId, 1);
      const third = await cart(buyer);
      expectApiError(third, 409);
      expect(third.data.error.message).toBe(messages.tooManyUnpaidOrders(2));
      expect((await cart(buyer)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
