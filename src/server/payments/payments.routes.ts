import { Hono } from 'hono';
import type Stripe from 'stripe';
import { z } from 'zod';
import { idSchema, numeric } from '../../lib/schemas';
import { signedIn } from '../auth/guards';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors';
import { jsonBody, parse } from '../http/validate';
import { logger } from '../logger';
import type { OrdersService } from '../orders/orders.service';
import type { AppEnv, CurrentUser, Deps } from '../types';
import { sandboxCardError } from './sandbox-cards';

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

/**
 * A cancelled order's open intents are cancelled at the provider too, so a card cannot be charged
 * for units that went back to stock. Best effort: a failure is logged for the shop to follow up.
 */
export async function cancelOpenPayments(deps: Deps, orderIds: string[]): Promise<void> {
  const { payments, db } = deps;
  if (!payments.cancel) return;
  const open = await db.query<{ id: string }>(
    `SELECT id FROM payments WHERE order_id = ANY($1) AND gateway = $2 AND status NOT IN ('succeeded', 'canceled')`,
    [orderIds, payments.kind],
  );
  for (const { id } of open) {
    try {
      await payments.cancel(id);
      await db.query(`UPDATE payments SET status = 'canceled' WHERE id = $1`, [id]);
    } catch (error) {
      logger.warn({ intentId: id, err: (error as Error).message }, 'could not cancel the payment of an expired order');
    }
  }
}

export function paymentsRoutes(deps: Deps, orders: OrdersService, stripe?: Stripe) {
  const { db, payments } = deps;

  async function ownOrder(user: CurrentUser, id: string) {
    await orders.expireHolds();
    const order = await orders.getRow(id);
    if (!order) throw notFound('Order');
    if (order.email !== user.email) throw forbidden('Only the buyer can pay for this order');
    return order;
  }

  const app = new Hono<AppEnv>()
    .post('/create-payment-intent', signedIn(deps), async (c) => {
      const { orderId } = await jsonBody(c, intentRequestSchema);
      const order = await ownOrder(c.get('user'), orderId);
      if (order.payment === 'paid') throw conflict('This order is already paid');
      if (order.payment === 'cancelled') throw conflict(order.cancel_reason ?? 'This order was cancelled');
      const amountCents = order.quantity * order.unit_price_cents;
      // Reopening the payment page reuses the intent instead of piling up new ones, even one that
      // succeeded while makepayment never ran (tab closed): a new intent would charge the card twice.
      const [open] = await db.query<{ client_secret: string }>(
        `SELECT client_secret FROM payments WHERE order_id = $1 AND amount_cents = $2 AND gateway = $3
           ORDER BY created_at DESC LIMIT 1`,
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
    // Paid only when the provider confirms this intent succeeded, for this order and this amount.
    .put('/booking/makepayment/:id', signedIn(deps), async (c) => {
      const id = parse(idSchema, c.req.param('id'));
      const { transactionId } = await jsonBody(c, makePaymentSchema);
      const order = await ownOrder(c.get('user'), id);
      const intent = await payments.retrieve(transactionId);
      if (!intent || intent.orderId !== order.id) throw badRequest('Unknown payment for this order');
      if (intent.status !== 'succeeded') throw new ApiError(402, 'payment_incomplete', 'The payment has not succeeded');
      await orders.markPaid(order.id, intent.id, intent.amountCents);
      await db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1`, [intent.id]);
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
      await db.query('UPDATE payments SET status = $2, last_error = $3 WHERE id = $1', [
        intent.id,
        error ? 'requires_payment_method' : 'succeeded',
        error,
      ]);
      if (error) throw new ApiError(402, 'card_declined', error);
      return c.json({ paymentIntent: { id: intent.id, status: 'succeeded' } });
    });
  }

  const webhookSecret = deps.config.stripe?.webhookSecret;
  if (stripe && webhookSecret) {
    // Marks orders paid even when the buyer closed the tab before makepayment ran.
    app.post('/webhooks/stripe', async (c) => {
      const signature = c.req.header('stripe-signature');
      if (!signature) throw badRequest('Missing Stripe signature');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(await c.req.text(), signature, webhookSecret);
      } catch {
        throw badRequest('Invalid Stripe signature');
      }
      if (event.type === 'payment_intent.succeeded') {
        const intent = event.data.object;
        const orderId = intent.metadata?.orderId;
        if (orderId) {
          try {
            await orders.markPaid(orderId, intent.id, intent.amount);
            await db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1`, [intent.id]);
          } catch (error) {
            logger.warn({ orderId, err: (error as Error).message }, 'webhook could not mark the order paid');
          }
        }
      }
      return c.json({ received: true });
    });
  }
  return app;
}
