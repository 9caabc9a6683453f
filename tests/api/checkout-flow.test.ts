// Issue 25, the checkout flow: holds end in one place. A read never lets a hold go (it shows what the
// database holds until the hold timer runs); a payment action on an order whose hold ran out settles it
// first, so no card is charged for units given back; and nobody but the buyer or an admin can touch an
// order's payments (a stranger's delete is refused before the provider is asked anything).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, BOB, createTestRuntime, type TestRuntime } from './harness';
import { GOOD_CARD, expectApiError, makeTool, placeOrder, stockOf, expectStockLedgerBalanced } from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let bob: string;
const ALICE = 'flow.alice@test.example';

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

const secretFor = async (orderId: string) =>
  (await runtime.request('POST', '/api/create-payment-intent', { token: alice, json: { orderId } })).data
    .clientSecret as string;
const confirm = (clientSecret: string) =>
  runtime.request('POST', '/api/sandbox/confirm', { token: alice, json: { clientSecret, card: GOOD_CARD } });

describe('holds', () => {
  it('reads never let a hold go: the order and its stock stay as they are until the hold timer runs', async () => {
    const tool = await makeTool(runtime, admin, { availableQuantity: 10 });
    const id = await placeOrder(runtime, alice, tool, 4);
    runtime.advance(runtime.deps.config.orderHoldMs + 1000);
    for (const url of [
      `/api/booking/${id}`,
      `/api/booking/email/${ALICE}`,
      `/api/booking/email/${ALICE}?limit=5`,
      '/api/booking?limit=5',
      '/api/booking',
    ]) {
      const token = url.startsWith('/api/booking/email') || url.startsWith(`/api/booking/${id}`) ? alice : admin;
      expect((await runtime.request('GET', url, { token })).status).toBe(200);
    }
    expect((await runtime.request('GET', `/api/booking/${id}`, { token: alice })).data.payment).toBe('unpaid');
    expect(await stockOf(runtime, tool)).toBe(6);
    const [{ n }] = await runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE subject = $1 AND type = 'order.cancelled'`,
      [id],
    );
    expect(n).toBe(0);

    expect(await runtime.checkout.expireHolds()).toBeGreaterThan(0);
    expect((await runtime.request('GET', `/api/booking/${id}`, { token: alice })).data.payment).toBe('cancelled');
    expect(await stockOf(runtime, tool)).toBe(10);
  });

  it('a payment action on an order whose hold ran out lets that hold go first: no charge, 409', async () => {
    const tool = await makeTool(runtime, admin, { availableQuantity: 10 });
    const id = await placeOrder(runtime, alice, tool, 2);
    const secret = await secretFor(id);
    runtime.advance(runtime.deps.config.orderHoldMs + 1000);
    const res = await confirm(secret);
    expectApiError(res, 409);
    expect((await runtime.request('GET', `/api/booking/${id}`, { token: alice })).data.payment).toBe('cancelled');
    expect(await stockOf(runtime, tool)).toBe(10);
    const [payment] = await runtime.db.query<{ status: string }>('SELECT status FROM payments WHERE order_id = $1', [
      id,
    ]);
    expect(payment.status).toBe('canceled');
  });
});

describe("an order's payments are its buyer's and the admins' only", () => {
  it("a stranger deleting someone's unpaid order is refused (403) and leaves its payment open", async () => {
    const tool = await makeTool(runtime, admin, { availableQuantity: 10 });
    const id = await placeOrder(runtime, alice, tool, 1);
    const secret = await secretFor(id);
    expect((await runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: bob })).status).toBe(403);
    const [payment] = await runtime.db.query<{ status: string }>('SELECT status FROM payments WHERE order_id = $1', [
      id,
    ]);
    expect(payment.status).not.toBe('canceled');
    expect((await confirm(secret)).status).toBe(200);
  });
});
