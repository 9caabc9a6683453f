// Card payments: the offline sandbox gateway, and the Stripe gateway against a local stand-in of Stripe.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient, stripeGateway } from '../../src/server/payments/stripe';
import { ADMIN, ALICE, BOB, createTestRuntime, type TestRuntime } from './harness';
import { messages } from '../../src/lib/messages';
import {
  DECLINED_CARD,
  GOOD_CARD,
  confirmSandbox,
  expectApiError,
  makeTool,
  payOrder,
  placeOrder,
  stockOf,
  expectStockLedgerBalanced,
} from './helpers';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

const makepayment = (runtime: TestRuntime, token: string, orderId: string, transactionId: unknown) =>
  runtime.request('PUT', `/api/booking/makepayment/${orderId}`, {
    token,
    json: { appointment: orderId, transactionId },
  });
const getOrder = async (runtime: TestRuntime, token: string, id: string) =>
  (await runtime.request('GET', `/api/booking/${id}`, { token })).data;

describe('sandbox gateway', () => {
  let runtime: TestRuntime;
  let alice: string;
  let bob: string;
  let toolId: string;
  beforeAll(async () => {
    runtime = await createTestRuntime();
    const admin = await runtime.tokenFor(ADMIN);
    alice = await runtime.tokenFor(ALICE);
    bob = await runtime.tokenFor(BOB);
    toolId = await makeTool(runtime, admin, { price: 19.99, minimumOrderQuantity: 1, availableQuantity: 500 });
  });
  afterAll(async () => {
    await expectStockLedgerBalanced(runtime);
    await runtime.close();
  });

  const intentFor = (orderId: string, token = alice, price?: unknown) =>
    runtime.request('POST', '/api/create-payment-intent', { token, json: { orderId, price } });
  const confirm = (clientSecret: string, card: object, token = alice) =>
    runtime.request('POST', '/api/sandbox/confirm', { token, json: { clientSecret, card } });

  it('create intent → confirm with 4242 → makepayment: the order is paid with the transaction id', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 3);
    const intent = await intentFor(orderId);
    expect(intent).toMatchObject({
      status: 200,
      data: {
        clientSecret: expect.stringMatching(/^pi_sandbox_\w+_secret_\w+$/),
        amountCents: 5997,
        gateway: 'sandbox',
      },
    });
    const confirmed = await confirm(intent.data.clientSecret, GOOD_CARD);
    expect(confirmed).toMatchObject({
      status: 200,
      data: { paymentIntent: { id: expect.stringMatching(/^pi_sandbox_/), status: 'succeeded' } },
    });
    const transactionId = confirmed.data.paymentIntent.id;
    expect(intent.data.clientSecret.startsWith(`${transactionId}_secret_`)).toBe(true);
    expect((await makepayment(runtime, alice, orderId, transactionId)).status).toBe(200);
    expect(await getOrder(runtime, alice, orderId)).toMatchObject({ payment: 'paid', transactionId });
  });

  it("the declined card 4000000000000002 answers 402 'Your card was declined.' and the order stays unpaid; 4242 then works", async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    const { clientSecret } = (await intentFor(orderId)).data;
    const declined = await confirm(clientSecret, DECLINED_CARD);
    expectApiError(declined, 402);
    expect(declined.data.error.message).toBe('Your card was declined.');
    expect((await getOrder(runtime, alice, orderId)).payment).toBe('unpaid');
    // The same open intent is offered again, and a good card completes it.
    expect((await intentFor(orderId)).data.clientSecret).toBe(clientSecret);
    expect((await confirm(clientSecret, GOOD_CARD)).status).toBe(200);
  });

  it.each([
    ['4000000000009995', 'Your card has insufficient funds.'],
    ['4000000000000069', 'Your card has expired.'],
    ['4242424242424241', 'Your card number is invalid.'],
  ])('card %s is refused with Stripe’s message', async (number, message) => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    const res = await confirm((await intentFor(orderId)).data.clientSecret, { ...GOOD_CARD, number });
    expectApiError(res, 402);
    expect(res.data.error.message).toBe(message);
  });

  it('makepayment without a succeeded intent is rejected and the order stays unpaid', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 2);
    const open = (await intentFor(orderId)).data.clientSecret.split('_secret_')[0];
    const otherOrder = await placeOrder(runtime, alice, toolId, 2);
    const othersIntent = await confirmSandbox(runtime, alice, otherOrder);
    for (const transactionId of [open, 'pi_sandbox_unknown', othersIntent, 'ch_made_up_by_client']) {
      expectApiError(await makepayment(runtime, alice, orderId, transactionId));
    }
    expectApiError(await makepayment(runtime, alice, orderId, open), 402);
    const order = await getOrder(runtime, alice, orderId);
    expect(order).toMatchObject({ payment: 'unpaid', transactionId: null });
  });

  it('makepayment is idempotent', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    const transactionId = await payOrder(runtime, alice, orderId);
    const before = await getOrder(runtime, alice, orderId);
    for (let i = 0; i < 3; i++) expect((await makepayment(runtime, alice, orderId, transactionId)).status).toBe(200);
    const concurrent = await Promise.all([1, 2, 3].map(() => makepayment(runtime, alice, orderId, transactionId)));
    expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await getOrder(runtime, alice, orderId)).toEqual(before);
    // A paid order offers no new intent.
    expectApiError(await intentFor(orderId), 409);
  });

  it('a card confirmed but never recorded (tab closed before makepayment) is not charged twice', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    const first = (await intentFor(orderId)).data.clientSecret;
    const transactionId = (await confirm(first, GOOD_CARD)).data.paymentIntent.id;
    // Reopening the payment page must offer the intent that already succeeded, as Stripe's idempotency key does.
    expect((await intentFor(orderId)).data.clientSecret).toBe(first);
    expect((await confirm(first, GOOD_CARD)).data.paymentIntent).toEqual({ id: transactionId, status: 'succeeded' });
    expect((await makepayment(runtime, alice, orderId, transactionId)).status).toBe(200);
    const rows = await runtime.db.query('SELECT id FROM payments WHERE order_id = $1', [orderId]);
    expect(rows).toHaveLength(1);
  });

  it('the amount comes from the order: a tampered price and a later price change are ignored', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 7);
    await runtime.db.query('UPDATE tools SET price_cents = 1 WHERE id = $1', [toolId]);
    runtime.tools.invalidate();
    const res = await intentFor(orderId, alice, 1);
    expect(res.data.amountCents).toBe(7 * 1999);
    const [row] = await runtime.db.query<{ amount_cents: number }>(
      'SELECT amount_cents FROM payments WHERE order_id = $1',
      [orderId],
    );
    expect(row.amount_cents).toBe(13993);
    await runtime.db.query('UPDATE tools SET price_cents = 1999 WHERE id = $1', [toolId]);
    runtime.tools.invalidate();
  });

  it("paying someone else's order is refused (403) at every step", async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    expectApiError(await intentFor(orderId, bob), 403);
    const { clientSecret } = (await intentFor(orderId)).data;
    expectApiError(await confirm(clientSecret, GOOD_CARD, bob), 403);
    const transactionId = (await confirm(clientSecret, GOOD_CARD)).data.paymentIntent.id;
    expectApiError(await makepayment(runtime, bob, orderId, transactionId), 403);
    expect((await getOrder(runtime, alice, orderId)).payment).toBe('unpaid');
  });

  // Last in this store: it moves the clock past the hold.
  it('a card cannot be charged for an order whose hold ran out', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    const { clientSecret } = (await intentFor(orderId)).data;
    runtime.advance(25 * 3600_000);
    expectApiError(await confirm(clientSecret, GOOD_CARD), 409);
    const [row] = await runtime.db.query<{ status: string }>('SELECT status FROM payments WHERE order_id = $1', [
      orderId,
    ]);
    expect(row.status).not.toBe('succeeded');
    expect((await getOrder(runtime, alice, orderId)).payment).toBe('cancelled');
  });
});

describe('Stripe gateway (local stand-in)', () => {
  const SECRET = 'sk_test_x';
  const WEBHOOK_SECRET = 'whsec_test';
  let standIn: StripeStandIn;
  let runtime: TestRuntime;
  let stripe: Stripe;
  let alice: string;
  let toolId: string;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    stripe = stripeClient(SECRET, standIn.url);
    runtime = await createTestRuntime({
      env: {
        STRIPE_SECRET_KEY: SECRET,
        PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
      payments: () => stripeGateway(stripe),
      stripe,
    });
    const admin = await runtime.tokenFor(ADMIN);
    alice = await runtime.tokenFor(ALICE);
    toolId = await makeTool(runtime, admin, { price: 4.35, minimumOrderQuantity: 1, availableQuantity: 500 });
  });
  afterAll(async () => {
    await runtime.close();
    await standIn.close();
  });

  const createIntent = async (orderId: string) => {
    const res = await runtime.request('POST', '/api/create-payment-intent', {
      token: alice,
      json: { orderId, price: 1 },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    return res.data;
  };
  const webhook = (payload: string, signature?: string) =>
    runtime.request('POST', '/api/webhooks/stripe', {
      body: payload,
      headers: { 'content-type': 'application/json', ...(signature && { 'stripe-signature': signature }) },
    });
  const succeededEvent = (
    intent: { id: string; amount: number; metadata: Record<string, string> },
    type = 'payment_intent.succeeded',
  ) =>
    JSON.stringify({
      id: `evt_${intent.id}`,
      object: 'event',
      type,
      data: { object: { object: 'payment_intent', status: 'succeeded', ...intent } },
    });

  it('create-payment-intent sends the server-computed amount, the order id and an idempotency key', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 3);
    const body = await createIntent(orderId);
    const sent = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${SECRET}`);
    expect(sent.form).toMatchObject({
      amount: '1305',
      currency: 'usd',
      'metadata[orderId]': orderId,
      receipt_email: ALICE,
    });
    expect(sent.idempotencyKey).toContain(orderId);
    const intent = [...standIn.intents.values()].find((i) => i.metadata.orderId === orderId)!;
    expect(body).toMatchObject({
      clientSecret: intent.client_secret,
      amountCents: 1305,
      gateway: 'stripe',
      publishableKey: 'pk_test_x',
    });
  });

  it('makepayment retrieves the intent from Stripe and marks the order paid only once it succeeded', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 2);
    await createIntent(orderId);
    const intent = [...standIn.intents.values()].find((i) => i.metadata.orderId === orderId)!;
    expectApiError(await makepayment(runtime, alice, orderId, intent.id), 402);
    expectApiError(await makepayment(runtime, alice, orderId, 'pi_does_not_exist'), 400);
    standIn.succeed(intent.id);
    const retrievals = standIn.requests.filter(
      (r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent.id}`,
    ).length;
    expect((await makepayment(runtime, alice, orderId, intent.id)).status).toBe(200);
    expect(
      standIn.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent.id}`).length,
    ).toBe(retrievals + 1);
    expect(await getOrder(runtime, alice, orderId)).toMatchObject({ payment: 'paid', transactionId: intent.id });
    expect((await makepayment(runtime, alice, orderId, intent.id)).status).toBe(200);
  });

  it('makepayment refuses a succeeded intent of another order or of a different amount', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 2);
    const foreign = standIn.add({ amount: 870, metadata: { orderId: 'f'.repeat(24) } });
    expectApiError(await makepayment(runtime, alice, orderId, foreign.id), 400);
    const short = standIn.add({ amount: 1, metadata: { orderId } });
    expectApiError(await makepayment(runtime, alice, orderId, short.id), 409);
    expect((await getOrder(runtime, alice, orderId)).payment).toBe('unpaid');
  });

  it('the webhook verifies the signature and marks payment_intent.succeeded orders paid', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 4);
    await createIntent(orderId);
    const intent = [...standIn.intents.values()].find((i) => i.metadata.orderId === orderId)!;
    const payload = succeededEvent({ id: intent.id, amount: 1740, metadata: { orderId } });
    const res = await webhook(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    expect(res).toMatchObject({ status: 200, data: { received: true } });
    expect(await getOrder(runtime, alice, orderId)).toMatchObject({ payment: 'paid', transactionId: intent.id });
    // Stripe retries deliveries: the same event again changes nothing.
    expect(
      (await webhook(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))).status,
    ).toBe(200);
  });

  it('the webhook refuses a body far larger than any Stripe event with 413, unread', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    const res = await webhook(
      huge,
      stripe.webhooks.generateTestHeaderString({ payload: huge, secret: WEBHOOK_SECRET }),
    );
    expectApiError(res, 413);
  });

  it('the webhook refuses a bad, missing or foreign signature (400) and changes nothing', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    const payload = succeededEvent({ id: 'pi_forged', amount: 435, metadata: { orderId } });
    const valid = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    for (const signature of [
      undefined,
      'garbage',
      stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }),
      valid.replace(/v1=([0-9a-f])/, (_, c) => `v1=${c === '0' ? '1' : '0'}`),
      stripe.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      }),
    ]) {
      expectApiError(await webhook(payload, signature), 400);
    }
    expectApiError(await webhook(payload.replace('435', '1'), valid), 400);
    expect((await getOrder(runtime, alice, orderId)).payment).toBe('unpaid');
  });

  it('the webhook ignores other events and amounts that do not match the order', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 1);
    const sign = (payload: string) => stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const failed = succeededEvent(
      { id: 'pi_failed', amount: 435, metadata: { orderId } },
      'payment_intent.payment_failed',
    );
    expect((await webhook(failed, sign(failed))).status).toBe(200);
    const cheap = succeededEvent({ id: 'pi_cheap', amount: 1, metadata: { orderId } });
    expect((await webhook(cheap, sign(cheap))).status).toBe(200);
    expect((await getOrder(runtime, alice, orderId)).payment).toBe('unpaid');
  });

  it('an order whose hold ran out has its open Stripe intent cancelled, so it can no longer be charged', async () => {
    const orderId = await placeOrder(runtime, alice, toolId, 2);
    await createIntent(orderId);
    const intent = [...standIn.intents.values()].find((i) => i.metadata.orderId === orderId)!;
    runtime.advance(25 * 3600_000);
    await runtime.checkout.expireHolds(); // the hold timer's run (reads let no hold go)
    expect(await getOrder(runtime, alice, orderId)).toMatchObject({ payment: 'cancelled' });
    expect(
      standIn.requests.some((r) => r.method === 'POST' && r.path === `/v1/payment_intents/${intent.id}/cancel`),
    ).toBe(true);
    expect(standIn.intents.get(intent.id)!.status).toBe('canceled');
  });

  it('has no sandbox card network when Stripe is configured', async () => {
    const res = await runtime.request('POST', '/api/sandbox/confirm', {
      token: alice,
      json: { clientSecret: 'x', card: GOOD_CARD },
    });
    expectApiError(res, 404);
  });
});

// Money is never taken for an order that no longer exists: every interleaving of a payment with a hold
// expiry or a delete, on both gateways. The intent is cancelled (or read) before the order is let go.
describe.each(['sandbox', 'stripe'] as const)('payments racing expiry and deletes (%s)', (kind) => {
  const WEBHOOK_SECRET = 'whsec_race';
  let standIn: StripeStandIn | undefined;
  let stripe: Stripe | undefined;
  let runtime: TestRuntime;
  let alice: string;
  let toolId: string;

  beforeAll(async () => {
    if (kind === 'stripe') {
      standIn = await startStripeStandIn();
      stripe = stripeClient('sk_test_race', standIn.url);
      const client = stripe;
      runtime = await createTestRuntime({
        env: {
          STRIPE_SECRET_KEY: 'sk_test_race',
          PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_race',
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        },
        payments: () => stripeGateway(client),
        stripe: client,
      });
    } else {
      runtime = await createTestRuntime();
    }
    alice = await runtime.tokenFor(ALICE);
    toolId = await makeTool(runtime, await runtime.tokenFor(ADMIN), {
      price: 2.5,
      minimumOrderQuantity: 1,
      availableQuantity: 1000,
    });
  });
  afterAll(async () => {
    await runtime.close();
    await standIn?.close();
  });

  const HOLD = 31 * 60_000;
  /** Places an order of 2 and opens its payment; returns the ids. */
  async function orderWithIntent() {
    const orderId = await placeOrder(runtime, alice, toolId, 2);
    const res = await runtime.request('POST', '/api/create-payment-intent', { token: alice, json: { orderId } });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    return { orderId, intentId: res.data.clientSecret.split('_secret_')[0] as string };
  }
  /** The buyer's card goes through at the provider (another tab), without makepayment. */
  async function succeed(intentId: string) {
    if (standIn) standIn.succeed(intentId);
    else await runtime.db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1`, [intentId]);
  }
  async function providerStatus(intentId: string) {
    if (standIn) return standIn.intents.get(intentId)!.status;
    const [row] = await runtime.db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [intentId]);
    return row.status;
  }
  const refundsAtProvider = (intentId: string) =>
    standIn ? [...standIn.refunds.values()].filter((r) => r.payment_intent === intentId).length : undefined;
  const paymentRow = async (intentId: string) =>
    (
      await runtime.db.query<{ status: string; refund_id: string | null; refunded_at: unknown; order_id: string }>(
        'SELECT status, refund_id, refunded_at, order_id FROM payments WHERE id = $1',
        [intentId],
      )
    )[0];
  /** The race the server cannot close: the order was let go while the card was being charged. */
  const cancelBehindTheScenes = (orderId: string) =>
    runtime.db.query(`UPDATE orders SET payment = 'cancelled', cancel_reason = 'Not paid in time' WHERE id = $1`, [
      orderId,
    ]);
  const webhookSucceeded = async (intentId: string, orderId: string) => {
    const payload = JSON.stringify({
      id: `evt_${intentId}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: { object: 'payment_intent', id: intentId, status: 'succeeded', amount: 500, metadata: { orderId } },
      },
    });
    return runtime.request('POST', '/api/webhooks/stripe', {
      body: payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe!.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
  };

  it('(a) a hold that expires with the payment open: the intent is cancelled, the order cancelled, the stock back', async () => {
    const before = await stockOf(runtime, toolId);
    const { orderId, intentId } = await orderWithIntent();
    runtime.advance(HOLD);
    await runtime.checkout.expireHolds(); // the hold timer's run (reads let no hold go)
    expect(await getOrder(runtime, alice, orderId)).toMatchObject({ payment: 'cancelled', refund: null });
    expect(await providerStatus(intentId)).toBe('canceled');
    expect(await stockOf(runtime, toolId)).toBe(before);
  });

  it('(b) a hold that expires after the card went through: the order is paid, its units stay sold, nothing refunded', async () => {
    const before = await stockOf(runtime, toolId);
    const { orderId, intentId } = await orderWithIntent();
    await succeed(intentId);
    runtime.advance(HOLD);
    await runtime.checkout.expireHolds(); // the hold timer's run (reads let no hold go)
    expect(await getOrder(runtime, alice, orderId)).toMatchObject({
      payment: 'paid',
      transactionId: intentId,
      refund: null,
    });
    expect(await stockOf(runtime, toolId)).toBe(before - 2);
    expect(await providerStatus(intentId)).toBe('succeeded');
    expect((await paymentRow(intentId)).status).toBe('succeeded');
    if (standIn) expect(refundsAtProvider(intentId)).toBe(0);
  });

  it('(c) a payment that succeeds on a cancelled order is refunded by makepayment, recorded, and shown to the buyer', async () => {
    const { orderId, intentId } = await orderWithIntent();
    await cancelBehindTheScenes(orderId);
    await succeed(intentId);
    const res = await makepayment(runtime, alice, orderId, intentId);
    expectApiError(res, 409);
    expect(res.data.error).toMatchObject({ code: 'payment_refunded', message: messages.paymentRefunded });
    const row = await paymentRow(intentId);
    expect(row).toMatchObject({ status: 'refunded', refund_id: expect.any(String), refunded_at: expect.anything() });
    if (standIn) expect(refundsAtProvider(intentId)).toBe(1);
    const order = await getOrder(runtime, alice, orderId);
    expect(order).toMatchObject({
      payment: 'cancelled',
      refund: { id: row.refund_id, amountCents: 500, refundedAt: expect.any(String) },
    });
    const mine = (await runtime.request('GET', `/api/booking/email/${ALICE}`, { token: alice })).data;
    expect(mine.find((o: { _id: string }) => o._id === orderId).refund).toMatchObject({ id: row.refund_id });
    // Asking again refunds nothing more.
    expectApiError(await makepayment(runtime, alice, orderId, intentId), 409);
    if (standIn) expect(refundsAtProvider(intentId)).toBe(1);
  });

  it.runIf(kind === 'stripe')(
    '(c) the same through the webhook, for a cancelled order and for one that is gone',
    async () => {
      const cancelled = await orderWithIntent();
      await cancelBehindTheScenes(cancelled.orderId);
      await succeed(cancelled.intentId);
      expect((await webhookSucceeded(cancelled.intentId, cancelled.orderId)).status).toBe(200);
      expect(await paymentRow(cancelled.intentId)).toMatchObject({ status: 'refunded', refund_id: expect.any(String) });
      expect((await getOrder(runtime, alice, cancelled.orderId)).refund).toMatchObject({ amountCents: 500 });
      // Stripe delivers again: still one refund.
      expect((await webhookSucceeded(cancelled.intentId, cancelled.orderId)).status).toBe(200);
      expect(refundsAtProvider(cancelled.intentId)).toBe(1);

      const gone = await orderWithIntent();
      await runtime.db.query('DELETE FROM orders WHERE id = $1', [gone.orderId]);
      await succeed(gone.intentId);
      expect((await webhookSucceeded(gone.intentId, gone.orderId)).status).toBe(200);
      expect(refundsAtProvider(gone.intentId)).toBe(1);
      expect(await paymentRow(gone.intentId)).toMatchObject({
        status: 'refunded',
        order_id: gone.orderId,
        refund_id: expect.any(String),
      });
    },
  );

  it.runIf(kind === 'stripe')(
    'a late delivery for a paid order (which an admin could not delete) refunds nothing',
    async () => {
      const { orderId, intentId } = await orderWithIntent();
      await succeed(intentId);
      expect((await makepayment(runtime, alice, orderId, intentId)).status).toBe(200);
      expect(
        (await runtime.request('DELETE', `/api/booking/dlt/${orderId}`, { token: await runtime.tokenFor(ADMIN) }))
          .status,
      ).toBe(409);
      expect((await webhookSucceeded(intentId, orderId)).status).toBe(200);
      expect(refundsAtProvider(intentId)).toBe(0);
      expect((await paymentRow(intentId)).status).toBe('succeeded');
    },
  );

  it.runIf(kind === 'stripe')(
    'a hold whose payment cannot be cancelled now (Stripe down) keeps the order until it can',
    async () => {
      const { orderId, intentId } = await orderWithIntent();
      const closed = standIn!.url;
      await standIn!.close();
      runtime.advance(HOLD);
      expect(await runtime.checkout.expireHolds()).toBe(0);
      expect((await getOrder(runtime, alice, orderId)).payment).toBe('unpaid');
      standIn = await startStripeStandIn({ intents: standIn!.intents, refunds: standIn!.refunds, url: closed });
      await runtime.checkout.expireHolds(); // the hold timer's run (reads let no hold go)
      expect((await getOrder(runtime, alice, orderId)).payment).toBe('cancelled');
      expect(await providerStatus(intentId)).toBe('canceled');
    },
  );

  it('(d) deleting an unpaid order cancels its open payment first', async () => {
    const before = await stockOf(runtime, toolId);
    const { orderId, intentId } = await orderWithIntent();
    expect((await runtime.request('DELETE', `/api/booking/dlt/${orderId}`, { token: alice })).status).toBe(200);
    expect(await providerStatus(intentId)).toBe('canceled');
    expect(await stockOf(runtime, toolId)).toBe(before);
    // The payment is remembered after the order is gone.
    expect((await paymentRow(intentId)).status).toBe('canceled');
  });

  it('(e) deleting an order whose card already went through is refused, and the order is paid', async () => {
    const before = await stockOf(runtime, toolId);
    const { orderId, intentId } = await orderWithIntent();
    await succeed(intentId);
    const res = await runtime.request('DELETE', `/api/booking/dlt/${orderId}`, { token: alice });
    expectApiError(res, 409);
    expect(res.data.error.message).toBe(messages.orderPaidMeanwhile);
    expect(await getOrder(runtime, alice, orderId)).toMatchObject({ payment: 'paid', transactionId: intentId });
    expect(await stockOf(runtime, toolId)).toBe(before - 2);
    if (standIn) expect(refundsAtProvider(intentId)).toBe(0);
  });

  it.runIf(kind === 'sandbox')(
    'the sandbox card network refuses a cancelled payment and a cancelled order',
    async () => {
      const { orderId } = await orderWithIntent();
      const { clientSecret } = (
        await runtime.request('POST', '/api/create-payment-intent', { token: alice, json: { orderId } })
      ).data;
      runtime.advance(HOLD);
      expectApiError(
        await runtime.request('POST', '/api/sandbox/confirm', {
          token: alice,
          json: { clientSecret, card: GOOD_CARD },
        }),
        409,
      );
      expect(await getOrder(runtime, alice, orderId)).toMatchObject({ payment: 'cancelled' });
    },
  );
});
