import { Hono } from 'hono';
import type Stripe from 'stripe';
import { z } from 'zod';
import { idSchema, numeric } from '../../lib/schemas.ts';
import { isBuyer, signedIn } from '../auth/guards.ts';
import { messages } from '../../lib/messages.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { jsonBody, parse, readBounded } from '../http/validate.ts';
import { logger } from '../logger.ts';
import type { CheckoutFlow } from '../checkout/checkout.flow.ts';
import type { AppEnv, CurrentUser, Deps } from '../types.ts';
import type { PaymentsService } from './payments.service.ts';

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

export function paymentsRoutes(deps: Deps, checkout: CheckoutFlow, payments: PaymentsService, stripe?: Stripe) {
  /** The buyer's own order, its hold settled first if it ran out (never charge for units given back). */
  async function ownOrder(user: CurrentUser, id: string) {
    const order = await checkout.orderForPayment(id);
    if (!order) throw notFound('Order');
    if (!isBuyer(user, order)) throw forbidden('Only the buyer can pay for this order');
    return order;
  }

  const app = new Hono<AppEnv>()
    .post('/create-payment-intent', signedIn(deps), async (c) => {
      const { orderId } = await jsonBody(c, intentRequestSchema);
      const { clientSecret, amountCents } = await payments.intentFor(await ownOrder(c.get('user'), orderId));
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
      const order = await checkout.orderForPayment(id);
      if (order && !isBuyer(c.get('user'), order)) throw forbidden('Only the buyer can pay for this order');
      const intent = await payments.retrieve(transactionId);
      if (!intent || intent.orderId !== id) throw order ? badRequest('Unknown payment for this order') : notFound('Order');
      if (intent.status !== 'succeeded') throw new ApiError(402, 'payment_incomplete', 'The payment has not succeeded');
      const outcome = await checkout.settle({ ...intent, orderId: id });
      if (outcome === 'refunded') throw new ApiError(409, 'payment_refunded', messages.paymentRefunded);
      if (outcome === 'missing') throw notFound('Order');
      if (outcome === 'other') throw conflict('This order was already paid with another payment');
      if (outcome === 'cancelled') throw conflict(messages.holdExpired);
      if (outcome === 'amount') throw conflict('The payment amount does not match the order total');
      return c.json({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    });

  if (payments.kind === 'sandbox') {
    // The sandbox's card network: the order's owner confirms an intent with a (test) card.
    app.post('/sandbox/confirm', signedIn(deps), async (c) => {
      const { clientSecret, card } = await jsonBody(c, sandboxConfirmSchema);
      const intent = await payments.sandboxIntent(clientSecret);
      if (!intent) throw notFound('Payment');
      const order = await ownOrder(c.get('user'), intent.orderId);
      if (intent.status === 'succeeded') return c.json({ paymentIntent: { id: intent.id, status: 'succeeded' } });
      // Never charge for an order whose hold ran out: its units went back to stock.
      if (order.payment === 'cancelled') throw conflict(order.cancel_reason ?? 'This order was cancelled');
      const charged = await payments.chargeSandbox(intent.id, card, deps.now());
      if (charged === 'cancelled') throw conflict('This payment was cancelled');
      if (charged.declined) throw new ApiError(402, 'card_declined', charged.declined);
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
            outcome = await checkout.settle({ id: intent.id, status: intent.status, amountCents: intent.amount, orderId });
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
