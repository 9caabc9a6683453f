import type Stripe from 'stripe';
import { paymentsContract } from '../../lib/contracts/payments.ts';
import { signedIn, stripeSignature } from '../auth/guards.ts';
import { isBuyer } from '../users/user-rules.ts';
import { messages } from '../../lib/messages.ts';
import { contractRouter } from '../http/contract-router.ts';
import { ApiError } from '../http/errors.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { readBounded } from '../http/validate.ts';
import { logger } from '../observability/logger.ts';
import type { CheckoutFlow } from '../checkout/checkout.flow.ts';
import type { CurrentUser, Deps } from '../types.ts';
import type { PaymentsService } from './payments.service.ts';

const WEBHOOK_MAX_BYTES = 256 * 1024;

export function paymentsRoutes(deps: Deps, checkout: CheckoutFlow, payments: PaymentsService, stripe?: Stripe) {
  /** The buyer's own order, its hold settled first if it ran out (never charge for units given back). */
  async function ownOrder(user: CurrentUser, id: string) {
    const order = await checkout.orderForPayment(id);
    if (!order) throw notFound('Order');
    if (!isBuyer(user, order)) throw forbidden('Only the buyer can pay for this order');
    return order;
  }

  const router = contractRouter(deps)
    .on(paymentsContract.intent, signedIn(deps), async (c, { body }) => {
      const { clientSecret, amountCents } = await payments.intentFor(await ownOrder(c.get('user'), body.orderId));
      return {
        clientSecret,
        amountCents,
        gateway: payments.kind,
        publishableKey: deps.config.stripe?.publishableKey ?? null,
      };
    })
    // Paid only when the provider confirms this intent succeeded, for this order and this amount; a
    // payment that succeeded for an order cancelled (or deleted) meanwhile is refunded and said so.
    .on(paymentsContract.pay, signedIn(deps), async (c, { params: { id }, body: { transactionId } }) => {
      const order = await checkout.orderForPayment(id);
      if (order && !isBuyer(c.get('user'), order)) throw forbidden('Only the buyer can pay for this order');
      const intent = await payments.retrieve(transactionId);
      if (!intent || intent.orderId !== id) throw order ? invalid('Unknown payment for this order') : notFound('Order');
      if (intent.status !== 'succeeded') throw new ApiError(402, 'payment_incomplete', 'The payment has not succeeded');
      const outcome = await checkout.settle({ ...intent, orderId: id });
      if (outcome === 'refunded') throw new ApiError(409, 'payment_refunded', messages.paymentRefunded);
      if (outcome === 'missing') throw notFound('Order');
      if (outcome === 'other') throw conflict('This order was already paid with another payment');
      if (outcome === 'cancelled') throw conflict(messages.holdExpired);
      if (outcome === 'amount') throw conflict('The payment amount does not match the order total');
      return { acknowledged: true, matchedCount: 1, modifiedCount: 1 };
    });

  if (payments.kind === 'sandbox') {
    // The sandbox's card network: the order's owner confirms an intent with a (test) card.
    router.on(paymentsContract.sandboxConfirm, signedIn(deps), async (c, { body: { clientSecret, card } }) => {
      const intent = await payments.sandboxIntent(clientSecret);
      if (!intent) throw notFound('Payment');
      const order = await ownOrder(c.get('user'), intent.orderId);
      if (intent.status === 'succeeded') return { paymentIntent: { id: intent.id, status: 'succeeded' } };
      // Never charge for an order whose hold ran out: its units went back to stock.
      if (order.payment === 'cancelled') throw conflict(order.cancel_reason ?? 'This order was cancelled');
      const charged = await payments.chargeSandbox(intent.id, card, deps.now());
      if (charged === 'cancelled') throw conflict('This payment was cancelled');
      if (charged.declined) throw new ApiError(402, 'card_declined', charged.declined);
      return { paymentIntent: { id: intent.id, status: 'succeeded' } };
    });
  }

  const webhookSecret = deps.config.stripe?.webhookSecret;
  if (stripe && webhookSecret) {
    // Marks orders paid even when the buyer closed the tab before makepayment ran, and refunds a payment
    // for an order that was let go. A failure answers 503, so Stripe delivers the event again.
    router.on(paymentsContract.stripeWebhook, stripeSignature, async (c) => {
      const signature = c.req.header('stripe-signature');
      if (!signature) throw invalid('Missing Stripe signature');
      // Stripe's events are a few kB; anything far larger is not Stripe, and is refused unread.
      const payload = (await readBounded(c.req.raw, WEBHOOK_MAX_BYTES)).toString('utf8');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(payload, signature, webhookSecret);
      } catch {
        throw invalid('Invalid Stripe signature');
      }
      if (event.type === 'payment_intent.succeeded') {
        const intent = event.data.object;
        const orderId = intent.metadata?.orderId;
        if (orderId) {
          let outcome;
          try {
            outcome = await checkout.settle({
              id: intent.id,
              status: intent.status,
              amountCents: intent.amount,
              orderId,
            });
          } catch (error) {
            logger.error(
              { orderId, intentId: intent.id, err: (error as Error).message },
              'webhook could not settle a payment',
            );
            throw new ApiError(503, 'retry', 'Could not settle the payment now');
          }
          if (outcome !== 'ok' && outcome !== 'refunded')
            logger.warn({ orderId, intentId: intent.id, outcome }, 'webhook did not mark the order paid');
        }
      }
      return { received: true };
    });
  }
  return router.app;
}
