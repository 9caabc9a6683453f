// Order integrity: the server computes price, buyer and stock; the client only asks.
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
  setTool,
  snapshot,
  stockOf,
  expectStockLedgerBalanced,
} from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let bob: string;
let aliceName: string;

const book = (token: string, toolId: string, quantity: number, extra: object = {}) =>
  runtime.request('POST', '/api/booking', {
    token,
    json: { toolId, quantity, address: ADDRESS, phone: PHONE, ...extra },
  });
const order = async (id: string, token = admin) => (await runtime.request('GET', `/api/booking/${id}`, { token })).data;
const toolStock = async (toolId: string) =>
  (await runtime.request('GET', `/api/tools/${toolId}`)).data.availableQuantity;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  bob = await runtime.tokenFor(BOB);
  aliceName = (await runtime.request('GET', `/api/userprofile/${ALICE}`, { token: alice })).data.name;
});
afterAll(async () => {
  // Whatever the races above did, every unit is accounted for in the stock ledger.
  await expectStockLedgerBalanced(runtime);
  await runtime.close();
});

describe('placing an order', () => {
  it('takes the price from the database and the buyer from the token; tampered fields are ignored', async () => {
    const toolId = await makeTool(runtime, admin, { price: 31.9, minimumOrderQuantity: 3, availableQuantity: 100 });
    const tool = (await runtime.request('GET', `/api/tools/${toolId}`)).data;
    const res = await book(alice, toolId, 3, {
      price: 0.01,
      productName: 'Free hammer',
      userName: 'Mallory',
      email: BOB,
      payment: 'paid',
      transactionId: 'pi_fake',
      role: 'admin',
      shippingStatus: 'shipped',
    });
    expect(res.status).toBe(201);
    expect(await order(res.data.insertedId)).toMatchObject({
      productName: tool.name,
      price: 31.9,
      userName: aliceName,
      email: ALICE,
      quantity: 3,
      payment: 'unpaid',
      transactionId: null,
      shippingStatus: 'pending',
      totalCents: 9570,
    });
    expect((await runtime.request('GET', `/api/admin/${ALICE}`, { token: alice })).data).toEqual({ admin: false });
    expect((await runtime.request('GET', `/api/booking/email/${BOB}`, { token: bob })).data).toEqual([]);
  });

  it('refuses a quantity below the minimum with the spec message (422), writing nothing', async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 10, availableQuantity: 100 });
    const before = await snapshot(runtime);
    const res = await book(alice, toolId, 9);
    expectApiError(res, 422);
    expect(res.data.error.message).toBe(messages.quantityBelowMinimum);
    expect(res.data.error.fields).toEqual({ quantity: messages.quantityBelowMinimum });
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('refuses a quantity above the available stock with the spec message (422), writing nothing', async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 10, availableQuantity: 100 });
    const before = await snapshot(runtime);
    const res = await book(alice, toolId, 101);
    expectApiError(res, 422);
    expect(res.data.error.message).toBe(messages.quantityAboveAvailable);
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('takes the stock: the available quantity drops by the quantity bought, down to exactly 0', async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 5, availableQuantity: 40 });
    await placeOrder(runtime, alice, toolId, 15);
    expect(await toolStock(toolId)).toBe(25);
    await placeOrder(runtime, bob, toolId, 25);
    expect(await toolStock(toolId)).toBe(0);
    expect(await stockOf(runtime, toolId)).toBe(0);
    expect((await book(alice, toolId, 5)).data.error.message).toBe(messages.quantityAboveAvailable);
  });

  it('answers 404 for a tool that does not exist', async () => {
    expectApiError(await book(alice, 'f'.repeat(24), 1), 404);
  });
});

describe('deleting orders', () => {
  let toolId: string;
  beforeAll(async () => {
    toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 2, availableQuantity: 60 });
  });

  it('an unpaid order gives its units back', async () => {
    const id = await placeOrder(runtime, alice, toolId, 8);
    expect(await toolStock(toolId)).toBe(52);
    expect((await runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: alice })).status).toBe(200);
    expect(await toolStock(toolId)).toBe(60);
    expectApiError(await runtime.request('GET', `/api/booking/${id}`, { token: alice }), 404);
  });

  it('nobody deletes a paid order (409, pointing to a refund): not its buyer, not an admin, not several admins at once', async () => {
    const id = await placeOrder(runtime, alice, toolId, 4);
    await payOrder(runtime, alice, id);
    for (const token of [alice, admin]) {
      const refused = await runtime.request('DELETE', `/api/booking/dlt/${id}`, { token });
      expectApiError(refused, 409);
      expect(refused.data.error.message).toBe(messages.paidOrderKept);
    }
    const racing = await Promise.all(
      [1, 2, 3].map(() => runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: admin })),
    );
    expect(racing.map((r) => r.status)).toEqual([409, 409, 409]);
    expect((await order(id)).payment).toBe('paid');
    expect((await runtime.request('GET', `/api/booking/${id}`, { token: alice })).status).toBe(200);
    expect(await toolStock(toolId)).toBe(56);
  });

  it("an admin deletes a buyer's unpaid order as the buyer would: its units go back", async () => {
    const id = await placeOrder(runtime, alice, toolId, 6);
    expect(await toolStock(toolId)).toBe(50);
    expect((await runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: admin })).status).toBe(200);
    expect(await toolStock(toolId)).toBe(56);
    expectApiError(await runtime.request('GET', `/api/booking/${id}`, { token: alice }), 404);
  });

  it("a buyer cannot delete someone else's order (403)", async () => {
    const id = await placeOrder(runtime, alice, toolId, 2);
    expectApiError(await runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: bob }), 403);
    expect((await order(id)).quantity).toBe(2);
  });

  it('deleting a tool keeps its orders intact, with the name and price they were placed at', async () => {
    const gone = await makeTool(runtime, admin, {
      name: 'Soon gone',
      price: 8.8,
      minimumOrderQuantity: 1,
      availableQuantity: 10,
    });
    const unpaid = await placeOrder(runtime, alice, gone, 3);
    const paid = await placeOrder(runtime, alice, gone, 2);
    const transactionId = await payOrder(runtime, alice, paid);
    expect((await runtime.request('DELETE', `/api/tools/dlt/${gone}`, { token: admin })).status).toBe(200);
    expectApiError(await runtime.request('GET', `/api/tools/${gone}`), 404);
    expect(await order(unpaid, alice)).toMatchObject({
      productName: 'Soon gone',
      price: 8.8,
      quantity: 3,
      payment: 'unpaid',
      toolId: null,
    });
    expect(await order(paid, alice)).toMatchObject({
      productName: 'Soon gone',
      price: 8.8,
      quantity: 2,
      payment: 'paid',
      transactionId,
    });
    // Its units have nowhere to go back to; deleting the unpaid order still works.
    expect((await runtime.request('DELETE', `/api/booking/dlt/${unpaid}`, { token: alice })).status).toBe(200);
  });
});

describe('concurrency', () => {
  it('200 concurrent orders of 1 for 50 in stock: exactly 50 succeed and the stock ends at exactly 0', async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 5, availableQuantity: 10 });
    await setTool(runtime, toolId, { minimum: 1, available: 50 });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => book(i % 2 ? alice : bob, toolId, 1)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 422)).toBe(true);
    for (const r of results.filter((r) => r.status === 422))
      expect(r.data.error.message).toBe(messages.quantityAboveAvailable);
    expect(await stockOf(runtime, toolId)).toBe(0);
    expect(await toolStock(toolId)).toBe(0);
    const [{ n }] = await runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE tool_id = $1', [
      toolId,
    ]);
    expect(n).toBe(50);
  });

  it('concurrent deletes and buys keep stock + held units constant and never negative', async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 1, availableQuantity: 10 });
    const placed = await Promise.all(Array.from({ length: 10 }, () => placeOrder(runtime, alice, toolId, 1)));
    expect(await stockOf(runtime, toolId)).toBe(0);
    const deletes = placed.map((id) => runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: alice }));
    const buys = Array.from({ length: 20 }, () => book(bob, toolId, 1));
    const [deleted, bought] = await Promise.all([Promise.all(deletes), Promise.all(buys)]);
    expect(deleted.every((r) => r.status === 200)).toBe(true);
    expect(bought.every((r) => r.status === 201 || r.status === 422)).toBe(true);
    const sold = bought.filter((r) => r.status === 201).length;
    expect(sold).toBeLessThanOrEqual(10);
    const stock = await stockOf(runtime, toolId);
    const [{ held }] = await runtime.db.query<{ held: number }>(
      `SELECT coalesce(sum(quantity), 0)::int AS held FROM orders WHERE tool_id = $1 AND payment = 'unpaid'`,
      [toolId],
    );
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(held).toBe(sold);
    expect(stock + held).toBe(10);
  });
});

describe('deleting a tool while its orders are deleted', () => {
  it('never fails (no 5xx): rounds of an admin deleting a tool as its buyer deletes six orders of it', async () => {
    for (let round = 0; round < 8; round++) {
      const toolId = await makeTool(runtime, admin, { availableQuantity: 100 });
      const orders = await Promise.all(Array.from({ length: 6 }, () => placeOrder(runtime, alice, toolId, 1)));
      const results = await Promise.all([
        runtime.request('DELETE', `/api/tools/dlt/${toolId}`, { token: admin }),
        ...orders.map((id) => runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: alice })),
      ]);
      expect(
        results.map((r) => r.status),
        JSON.stringify(results.map((r) => r.data)),
      ).toEqual(Array(7).fill(200));
      const [{ n }] = await runtime.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM orders WHERE id = ANY($1)',
        [orders],
      );
      expect(n).toBe(0);
    }
  });
});

describe('shipping', () => {
  it('only paid orders can be marked shipped (409 otherwise), and the buyer sees it', async () => {
    const toolId = await makeTool(runtime, admin);
    const id = await placeOrder(runtime, alice, toolId, 1);
    expectApiError(await runtime.request('PUT', `/api/booking/ship/${id}`, { token: admin }), 409);
    expect((await order(id)).shippingStatus).toBe('pending');
    await payOrder(runtime, alice, id);
    expect((await runtime.request('PUT', `/api/booking/ship/${id}`, { token: admin })).status).toBe(200);
    const mine = (await runtime.request('GET', `/api/booking/email/${ALICE}`, { token: alice })).data;
    expect(mine.find((o: { _id: string }) => o._id === id)).toMatchObject({
      payment: 'paid',
      shippingStatus: 'shipped',
    });
    expect((await order(id, alice)).shippingStatus).toBe('shipped');
  });
  it('an unknown order cannot be shipped (404)', async () => {
    expectApiError(await runtime.request('PUT', `/api/booking/ship/${'e'.repeat(24)}`, { token: admin }), 404);
  });
});

// Last: these move the store's clock past the 30 min hold (ORDER_HOLD_MINUTES).
describe('hold expiry', () => {
  it('an unpaid order past its hold is cancelled with a reason and its units come back; paid orders stay', async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 1, availableQuantity: 30 });
    const unpaid = await placeOrder(runtime, alice, toolId, 7);
    const paid = await placeOrder(runtime, alice, toolId, 3);
    await payOrder(runtime, alice, paid);
    expect(await toolStock(toolId)).toBe(20);
    runtime.advance(29 * 60_000);
    expect((await order(unpaid, alice)).payment).toBe('unpaid');
    runtime.advance(2 * 60_000);
    await runtime.checkout.expireHolds(); // the hold timer's run (reads let no hold go)
    const mine = (await runtime.request('GET', `/api/booking/email/${ALICE}`, { token: alice })).data;
    expect(mine.find((o: { _id: string }) => o._id === unpaid)).toMatchObject({
      payment: 'cancelled',
      cancelReason: expect.any(String),
    });
    expect((await order(paid, alice)).payment).toBe('paid');
    expect(await toolStock(toolId)).toBe(27);
    // A cancelled order can be neither paid nor give its units back twice.
    expectApiError(
      await runtime.request('POST', '/api/create-payment-intent', { token: alice, json: { orderId: unpaid } }),
      409,
    );
    expect((await runtime.request('DELETE', `/api/booking/dlt/${unpaid}`, { token: alice })).status).toBe(200);
    expect(await toolStock(toolId)).toBe(27);
  });

  it('units held by an expired order are free for the next buyer at once', async () => {
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 1, availableQuantity: 5 });
    const held = await placeOrder(runtime, alice, toolId, 5);
    runtime.advance(25 * 3600_000);
    const res = await book(bob, toolId, 5);
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await order(held)).payment).toBe('cancelled');
    expect(await stockOf(runtime, toolId)).toBe(0);
  });
});

describe('order totals', () => {
  it('a total above what a card payment can carry is refused at placing (422), never a 500 later', async () => {
    const toolId = await makeTool(runtime, admin, {
      price: 1_000_000,
      minimumOrderQuantity: 1,
      availableQuantity: 1_000_000,
    });
    const before = await snapshot(runtime);
    for (const quantity of [1_000_000, 2]) {
      const res = await book(alice, toolId, quantity);
      expectApiError(res, 422);
      expect(res.data.error).toMatchObject({
        message: messages.orderTotalTooHigh,
        fields: { quantity: messages.orderTotalTooHigh },
      });
    }
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('the largest allowed total ($999,999.99) is placed and paid for without overflow', async () => {
    const toolId = await makeTool(runtime, admin, {
      price: 999_999.99,
      minimumOrderQuantity: 1,
      availableQuantity: 10,
    });
    const id = await placeOrder(runtime, alice, toolId, 1);
    expect((await order(id)).totalCents).toBe(99_999_999);
    const intent = await runtime.request('POST', '/api/create-payment-intent', { token: alice, json: { orderId: id } });
    expect(intent).toMatchObject({ status: 200, data: { amountCents: 99_999_999 } });
  });
});
