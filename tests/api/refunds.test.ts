// Issue 25, refunds: an admin gives back a paid order's money, all of it or part, through the sandbox or
// Stripe (a local stand-in of its API); exactly once (two at once: one 200, one 409); a restock returns
// the units once; each refund has its credit note, its email and its step in the order's history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient, stripeGateway } from '../../src/server/payments/stripe';
import { ADMIN, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError, expectStockLedgerBalanced, makeTool, payOrder, placeOrder, stockOf } from './helpers';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

const BUYER = 'refund.buyer@test.example';

for (const provider of ['sandbox', 'stripe'] as const) {
  describe(`refunds through the ${provider}`, () => {
    let runtime: TestRuntime;
    let standIn: StripeStandIn | undefined;
    let admin: string;
    let buyer: string;
    let tool: string;

    beforeAll(async () => {
      if (provider === 'stripe') {
        standIn = await startStripeStandIn();
        const stripe = stripeClient('sk_test_refunds', standIn.url);
        runtime = await createTestRuntime({
          env: {
            STRIPE_SECRET_KEY: 'sk_test_refunds',
            PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
            STRIPE_WEBHOOK_SECRET: 'whsec_x',
          },
          payments: () => stripeGateway(stripe),
          stripe,
        });
      } else runtime = await createTestRuntime();
      admin = await runtime.tokenFor(ADMIN);
      buyer = await runtime.tokenFor(BUYER, 'Rita Refund');
      tool = await makeTool(runtime, admin, { name: 'Refund Hammer', price: 10, availableQuantity: 100 });
    });
    afterAll(async () => {
      // Refund restocks are in the stock ledger too.
      await expectStockLedgerBalanced(runtime);
      await runtime.close();
      await standIn?.close();
    });

    /** A paid order of `quantity` hammers ($10 each). */
    async function paid(quantity: number): Promise<string> {
      const id = await placeOrder(runtime, buyer, tool, quantity);
      if (provider === 'stripe') {
        const { data } = await runtime.request('POST', '/api/create-payment-intent', {
          token: buyer,
          json: { orderId: id },
        });
        const intentId = String(data.clientSecret).split('_secret_')[0];
        standIn!.succeed(intentId);
        const res = await runtime.request('PUT', `/api/booking/makepayment/${id}`, {
          token: buyer,
          json: { appointment: id, transactionId: intentId },
        });
        expect(res.status, JSON.stringify(res.data)).toBe(200);
      } else await payOrder(runtime, buyer, id);
      return id;
    }
    const refund = (id: string, json: unknown, token = admin) =>
      runtime.request('PUT', `/api/booking/refund/${id}`, { token, json });

    it('refuses an unpaid order (409), a non-admin (403), nobody (401) and bad input (400)', async () => {
      const unpaid = await placeOrder(runtime, buyer, tool, 1);
      expect((await refund(unpaid, { restock: false })).data.error.message).toBe('Only paid orders can be refunded');
      const id = await paid(1);
      expect((await refund(id, { restock: false }, buyer)).status).toBe(403);
      expect((await runtime.request('PUT', `/api/booking/refund/${id}`, { json: { restock: false } })).status).toBe(
        401,
      );
      for (const body of [
        {},
        { restock: 'yes' },
        { restock: true, amount: -1 },
        { restock: true, amount: 0.001 },
        { restock: true, amount: 'all' },
      ])
        expectApiError(await refund(id, body), 400);
    });

    it('a part, then the rest with a restock: two credit notes, the units back once, then nothing left (409)', async () => {
      const id = await paid(5);
      const stockBefore = await stockOf(runtime, tool);
      const part = await refund(id, { restock: false, amount: 12.5 });
      expect(part.status, JSON.stringify(part.data)).toBe(200);
      expect(part.data.refund).toMatchObject({
        amountCents: 1250,
        full: false,
        restocked: false,
        creditNote: expect.stringMatching(/^CN-\d{4}-\d{6}$/),
      });
      expect(part.data.order).toMatchObject({ refundedCents: 1250, payment: 'paid' });
      expect(await stockOf(runtime, tool)).toBe(stockBefore);

      const tooMuch = await refund(id, { restock: true, amount: 40 });
      expectApiError(tooMuch, 422);
      expect(tooMuch.data.error.message).toBe('The refund can be at most $37.50, what is left of the payment');

      const rest = await refund(id, { restock: true });
      expect(rest.data.refund).toMatchObject({ amountCents: 3750, full: true, restocked: true });
      expect(await stockOf(runtime, tool)).toBe(stockBefore + 5);
      expect(rest.data.order.history.map((s: { status: string }) => s.status)).toEqual([
        'placed',
        'paid',
        'refunded',
        'refunded',
      ]);
      expect(rest.data.order.invoices.map((d: { kind: string }) => d.kind)).toEqual([
        'invoice',
        'credit note',
        'credit note',
      ]);

      expect((await refund(id, { restock: true })).data.error.message).toBe('This order was refunded in full already');
      expect(await stockOf(runtime, tool)).toBe(stockBefore + 5);

      if (standIn) {
        const atStripe = [...standIn.refunds.values()].filter(
          (r) => r.payment_intent === rest.data.order.transactionId,
        );
        expect(atStripe.map((r) => r.amount).sort()).toEqual([1250, 3750]);
      }
      await runtime.outbox.run();
      const mails = await runtime.db.query<{ kind: string; attachments: unknown; text_body: string }>(
        `SELECT m.kind, m.attachments, m.text_body FROM emails m JOIN events e ON e.seq = m.event_seq WHERE e.subject = $1 AND m.kind = 'order-refunded' ORDER BY m.seq`,
        [id],
      );
      expect(mails).toHaveLength(2);
      expect(mails[0].text_body).toContain('$12.50');
      expect(JSON.stringify(mails[1].attachments)).toContain(rest.data.refund.creditNote);
    });

    it('two refunds at once: one succeeds, the other is a 409, and the provider refunds once', async () => {
      const id = await paid(2);
      const results = await Promise.all([refund(id, { restock: true }), refund(id, { restock: true })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const [{ n }] = await runtime.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM refunds WHERE order_id = $1 AND state = 'done'`,
        [id],
      );
      expect(n).toBe(1);
      if (standIn)
        expect(
          [...standIn.refunds.values()].filter(
            (r) => r.payment_intent === results.find((r) => r.status === 200)!.data.order.transactionId,
          ),
        ).toHaveLength(1);
    });
  });
}
