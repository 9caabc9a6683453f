// Stock hoarding: one account cannot hold the whole stock with unpaid orders, renew holds by
// re-ordering, or push the stock past what the admin set by letting holds expire after a restock.
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
  stockOf,
  expectStockLedgerBalanced,
} from './helpers';

let runtime: TestRuntime;
let admin: string;
const LIMIT = 3;
const RATE = 8;

const book = (token: string, toolId: string, quantity = 1) =>
  runtime.request('POST', '/api/booking', { token, json: { toolId, quantity, address: ADDRESS, phone: PHONE } });
const remove = (token: string, id: string) => runtime.request('DELETE', `/api/booking/dlt/${id}`, { token });

beforeAll(async () => {
  runtime = await createTestRuntime({
    env: { MAX_UNPAID_ORDERS: String(LIMIT), BOOKING_RATE_LIMIT: String(RATE), ORDER_HOLD_MINUTES: '30' },
  });
  admin = await runtime.tokenFor(ADMIN);
});
afterAll(async () => {
  // Whatever the races above did, every unit is accounted for in the stock ledger.
  await expectStockLedgerBalanced(runtime);
  await runtime.close();
});

describe('unpaid orders per buyer', () => {
  it(`the ${LIMIT + 1}th unpaid order is refused (409) naming the limit; paying or deleting one makes room`, async () => {
    const token = await runtime.tokenFor('limit-a@test.example');
    const toolId = await makeTool(runtime, admin, { availableQuantity: 100 });
    const ids = [];
    for (let i = 0; i < LIMIT; i++) ids.push(await placeOrder(runtime, token, toolId, 1));
    const refused = await book(token, toolId);
    expectApiError(refused, 409);
    expect(refused.data.error.message).toBe(messages.tooManyUnpaidOrders(LIMIT));
    expect(refused.data.error.message).toContain(`${LIMIT} unpaid orders`);
    expect(await stockOf(runtime, toolId)).toBe(100 - LIMIT);
    // Another buyer is not affected.
    await placeOrder(runtime, await runtime.tokenFor('limit-b@test.example'), toolId, 1);
    await payOrder(runtime, token, ids[0]);
    await placeOrder(runtime, token, toolId, 1);
    expect((await book(token, toolId)).status).toBe(409);
    expect((await remove(token, ids[1])).status).toBe(200);
    await placeOrder(runtime, token, toolId, 1);
  });

  it('holds under concurrency: six parallel orders by one buyer, exactly the limit succeed', async () => {
    const token = await runtime.tokenFor('limit-c@test.example');
    const toolId = await makeTool(runtime, admin, { availableQuantity: 100 });
    const results = await Promise.all(Array.from({ length: 6 }, () => book(token, toolId)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(6 - LIMIT).fill(409)]);
    expect(await stockOf(runtime, toolId)).toBe(100 - LIMIT);
  });
});

describe('placing orders is rate limited per buyer', () => {
  it(`after ${RATE} orders in a minute the next is refused with 429 and Retry-After; other buyers are not`, async () => {
    const token = await runtime.tokenFor('rate-a@test.example');
    const missing = 'a'.repeat(24);
    for (let i = 0; i < RATE; i++) expect((await book(token, missing)).status).toBe(404);
    const limited = await book(token, missing);
    expectApiError(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await book(await runtime.tokenFor('rate-b@test.example'), missing)).status).toBe(404);
  });
});

describe('hold length', () => {
  it('an unpaid order holds its units for ORDER_HOLD_MINUTES (30) and shows when it expires', async () => {
    const token = await runtime.tokenFor('hold-a@test.example');
    const toolId = await makeTool(runtime, admin, { availableQuantity: 10 });
    const id = await placeOrder(runtime, token, toolId, 2);
    const order = (await runtime.request('GET', `/api/booking/${id}`, { token })).data;
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBeGreaterThan(29 * 60_000);
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBeLessThan(31 * 60_000 + 5000);
    runtime.advance(31 * 60_000);
    await runtime.checkout.expireHolds(); // the hold timer's run (reads let no hold go)
    expect((await runtime.request('GET', `/api/booking/${id}`, { token })).data.payment).toBe('cancelled');
    expect(await stockOf(runtime, toolId)).toBe(10);
  });
});

// Last: moves the clock past the hold.
describe('restock', () => {
  it('sets the units for sale: holds placed before it do not add to it when they expire or are deleted', async () => {
    const alice = await runtime.tokenFor(ALICE);
    const bob = await runtime.tokenFor(BOB);
    const toolId = await makeTool(runtime, admin, { minimumOrderQuantity: 1, availableQuantity: 10 });
    const expiring = await placeOrder(runtime, alice, toolId, 4);
    const deleted = await placeOrder(runtime, bob, toolId, 3);
    expect(await stockOf(runtime, toolId)).toBe(3);
    const restocked = await runtime.request('PUT', `/api/tool/update/${toolId}`, {
      token: admin,
      json: { availableQuantity: 20 },
    });
    expect(restocked.status).toBe(200);
    // An order after the restock gives its units back as usual.
    const after = await placeOrder(runtime, bob, toolId, 5);
    expect(await stockOf(runtime, toolId)).toBe(15);
    expect((await remove(bob, deleted)).status).toBe(200);
    expect((await remove(bob, after)).status).toBe(200);
    expect(await stockOf(runtime, toolId)).toBe(20);
    runtime.advance(31 * 60_000);
    await runtime.checkout.expireHolds(); // the hold timer's run (reads let no hold go)
    expect((await runtime.request('GET', `/api/booking/${expiring}`, { token: alice })).data.payment).toBe('cancelled');
    expect(await stockOf(runtime, toolId)).toBe(20);
  });
});
