import { Hono } from 'hono';
import type Stripe from 'stripe';
import { z } from 'zod';
import { idSchema, numeric } from '../../lib/schemas.ts';
import { isBuyer, signedIn } from '../auth/guards.ts';
import { messages } from '../../lib/messages.ts';
import { ApiError, badRequest, conflict, forbidden, notFound, unprocessable } from '../http/errors.ts';
import { jsonBody, parse, readBounded } from '../http/validate.ts';
import { logger } from '../logger.ts';
import { HOLD_EXPIRED_REASON, MAX_ORDER_TOTAL_CENTS, type OrdersService } from '../orders/orders.service.ts';
import type { AppEnv, CurrentUser, Deps } from '../types.ts';
import { sandboxCardError } from './sandbox-cards.ts';
import { settleSucceeded } from './settle.ts';

const WEBHOOK_MAX_BYTES = 256 * 1024;

const intentRequestSchema = z.object({
  orderId: idSchema,
  // The spec's client sends its own total (x 100); we never use it.
  price: z.unknown().optional(),
});
const makePaymentSchema = z.object({
  appointment: z.string().optional(),
  transactionId: z.string().trim().min(1).max(255),
});
const sandboxConfirmSchema = z.object({
  clientSecret: z.string().min(1).max(255),
  card: z.object({
    number: z.string().max(32),
    expMonth: numeric(z.number().int()),
    expYear: numeric(z.number().int()),
    cvc: z.string().max(8),
    postalCode: z.string().max(16).optional(),
  }),
});

export function paymentsRoutes(deps: Deps, orders: OrdersService, stripe?: Stripe) {
  const { db, payments } = deps;

  async function ownOrder(user: CurrentUser, id: string) {
    await orders.expireHolds();
    const order = await orders.getRow(id);
    if (!order) throw notFound('Order');
    if (!isBuyer(user, order)) throw forbidden('Only the buyer can pay for this order');
    return order;
  }

  const app = new Hono<AppEnv>()
    .post('/create-payment-intent', signedIn(deps), async (c) => {
      const { orderId } = await jsonBody(c, intentRequestSchema);
      const order = await ownOrder(c.get('user'), orderId);
      if (order.payment === 'paid') throw conflict('This order is already paid');
      if (order.payment === 'cancelled') throw conflict(order.cancel_reason ?? 'This order was cancelled');
      const amountCents = Number(order.total_cents);
      // Orders placed before the cap: refused here rather than overflowing the payment's amount.
      if (amountCents > MAX_ORDER_TOTAL_CENTS) throw unprocessable(messages.orderTotalTooHigh);
      // Reopening the payment page reuses the intent instead of piling up new ones, even one that
      // succeeded while makepayment never ran (tab closed): a new intent would charge the card twice.
      const [open] = await db.query<{ client_secret: string }>(
        `SELECT client_secret FROM payments WHERE order_id = $1 AND amount_cents = $2 AND gateway = $3
           AND status NOT IN ('canceled', 'refunded') ORDER BY created_at DESC LIMIT 1`,
        [order.id, amountCents, payments.kind],
      );
      let clientSecret = open?.client_secret;
      if (!clientSecret) {
        const intent = await payments.createIntent({ orderId: order.id, amountCents, email: order.email });
        clientSecret = intent.clientSecret;
        if (payments.kind === 'stripe') {
          await db.query(
            `INSERT INTO payments (id, order_id, gateway, amount_cents, client_secret) VALUES ($1, $2, 'stripe', $3, $4)
             ON CONFLICT (id) DO NOTHING`,
            [intent.id, order.id, amountCents, intent.clientSecret],
          );
        }
      }
      return c.json({
        clientSecret,
        amountCents,
        gateway: payments.kind,
        publishableKey: deps.config.stripe?.publishableKey ?? null,
      });
    })
    // Paid only when the provider confirms this intent succeeded, for this order and this amount; a
    // payment that succeeded for an order cancelled (or deleted) meanwhile is refunded and said so.
    .put('/booking/makepayment/:id', signedIn(deps), async (c) => {
      const id = parse(idSchema, c.req.param('id'));
      const { transactionId } = await jsonBody(c, makePaymentSchema);
      await orders.expireHolds();
      const order = await orders.getRow(id);
      if (order && !isBuyer(c.get('user'), order)) throw forbidden('Only the buyer can pay for this order');
      const intent = await payments.retrieve(transactionId);
      if (!intent || intent.orderId !== id) throw order ? badRequest('Unknown payment for this order') : notFound('Order');
      if (intent.status !== 'succeeded') throw new ApiError(402, 'payment_incomplete', 'The payment has not succeeded');
      const outcome = await settleSucceeded(deps, orders, { ...intent, orderId: id });
      if (outcome === 'refunded') throw new ApiError(409, 'payment_refunded', messages.paymentRefunded);
      if (outcome === 'missing') throw notFound('Order');
      if (outcome === 'other') throw conflict('This order was already paid with another payment');
      if (outcome === 'cancelled') throw conflict(HOLD_EXPIRED_REASON);
      if (outcome === 'amount') throw conflict('The payment amount does not match the order total');
      return c.json({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    });

  if (payments.kind === 'sandbox') {
    // The sandbox's card network: the order's owner confirms an intent with a (test) card.
    app.post('/sandbox/confirm', signedIn(deps), async (c) => {
      const { clientSecret, card } = await jsonBody(c, sandboxConfirmSchema);
      const [intent] = await db.query<{ id: string; order_id: string; status: string }>(
        `SELECT id, order_id, status FROM payments WHERE client_secret = $1 AND gateway = 'sandbox'`,
        [clientSecret],
      );
      if (!intent) throw notFound('Payment');
      const order = await ownOrder(c.get('user'), intent.order_id);
      if (intent.status === 'succeeded') return c.json({ paymentIntent: { id: intent.id, status: 'succeeded' } });
      // Never charge for an order whose hold ran out: its units went back to stock.
      if (order.payment === 'cancelled') throw conflict(order.cancel_reason ?? 'This order was cancelled');
      const error = sandboxCardError(card, deps.now());
      // Conditional: a payment cancelled meanwhile (the order expired or was deleted) is never charged.
      const charged = await db.query(
        `UPDATE payments SET status = $2, last_error = $3 WHERE id = $1 AND status NOT IN ('canceled', 'refunded') RETURNING id`,
        [intent.id, error ? 'requires_payment_method' : 'succeeded', error],
      );
      if (!charged.length) throw conflict('This payment was cancelled');
      if (error) throw new ApiError(402, 'card_declined', error);
      return c.json({ paymentIntent: { id: intent.id, status: 'succeeded' } });
    });
  }

  const webhookSecret = deps.config.stripe?.webhookSecret;
  if (stripe && webhookSecret) {
    // Marks orders paid even when the buyer closed the tab before makepayment ran, and refunds a payment
    // for an order that was let go. A failure answers 503, so Stripe delivers the event again.
    app.post('/webhooks/stripe', async (c) => {
      const signature = c.req.header('stripe-signature');
      if (!signature) throw badRequest('Missing Stripe signature');
      // Stripe's events are a few kB; anything far larger is not Stripe, and is refused unread.
      const payload = (await readBounded(c.req.raw, WEBHOOK_MAX_BYTES)).toString('utf8');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(payload, signature, webhookSecret);
      } catch {
        throw badRequest('Invalid Stripe signature');
      }
      if (event.type === 'payment_intent.succeeded') {
        const intent = event.data.object;
        const orderId = intent.metadata?.orderId;
        if (orderId) {
          let outcome;
          try {
            outcome = await settleSucceeded(deps, orders, { id: intent.id, status: intent.status, amountCents: intent.amount, orderId });
          } catch (error) {
            logger.error({ orderId, intentId: intent.id, err: (error as Error).message }, 'webhook could not settle a payment');
            throw new ApiError(503, 'retry', 'Could not settle the payment now');
          }
          if (outcome !== 'ok' && outcome !== 'refunded') logger.warn({ orderId, intentId: intent.id, outcome }, 'webhook did not mark the order paid');
        }
      }
      return c.json({ received: true });
    });
  }
  return app;
}
