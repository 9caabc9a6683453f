// Money follows the order: a payment is closed at the provider before its order is let go, and a
// payment that succeeds for an order that was cancelled or deleted anyway is refunded and recorded.
import { logger } from '../logger.ts';
import type { OrdersService, PaidOutcome, PaymentsClosed } from '../orders/orders.service.ts';
import type { Deps } from '../types.ts';
import type { IntentStatus } from './gateway.ts';

/**
 * Cancels an order's open payments at the provider, before the order is cancelled or deleted. A payment
 * that succeeded first is reported (the order is then paid instead); a provider that cannot be reached
 * or a payment still processing leaves the order as it is, for the next try.
 */
export async function closeOpenPayments(deps: Pick<Deps, 'db' | 'payments'>, orderId: string): Promise<PaymentsClosed> {
  const { db, payments } = deps;
  const open = await db.query<{ id: string; amount_cents: number }>(
    `SELECT id, amount_cents FROM payments WHERE order_id = $1 AND gateway = $2 AND status NOT IN ('canceled', 'refunded')`,
    [orderId, payments.kind],
  );
  for (const { id, amount_cents } of open) {
    let status: string;
    try {
      status = await payments.cancel(id);
    } catch (error) {
      logger.warn({ orderId, intentId: id, err: (error as Error).message }, 'could not cancel a payment; the order is kept for now');
      return { state: 'unsettled' };
    }
    if (status === 'succeeded') {
      await db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1 AND status <> 'refunded'`, [id]);
      return { state: 'succeeded', intentId: id, amountCents: amount_cents };
    }
    if (status !== 'canceled') return { state: 'unsettled' };
    await db.query(`UPDATE payments SET status = 'canceled' WHERE id = $1 AND status NOT IN ('succeeded', 'refunded')`, [id]);
  }
  return { state: 'none' };
}

/**
 * A payment the provider says succeeded: it pays its order, or is refunded in full when the order was
 * cancelled, or deleted before being paid. Idempotent (makepayment and Stripe's webhook both call it,
 * Stripe retries). Throws when the provider cannot refund now, so the webhook is delivered again.
 */
export async function settleSucceeded(
  deps: Pick<Deps, 'db' | 'payments'>,
  orders: OrdersService,
  intent: IntentStatus & { orderId: string },
): Promise<PaidOutcome | 'refunded'> {
  const { db, payments } = deps;
  const outcome = await orders.markPaid(intent.orderId, intent.id, intent.amountCents);
  const [row] = await db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [intent.id]);
  if (outcome === 'ok') {
    await db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1 AND status <> 'refunded'`, [intent.id]);
    return outcome;
  }
  if (row?.status === 'refunded') return 'refunded';
  // A missing order whose payment we already recorded as succeeded was paid, then deleted by an admin.
  const refundable = outcome === 'cancelled' || (outcome === 'missing' && row?.status !== 'succeeded');
  if (!refundable) return outcome;
  const refund = await payments.refund(intent.id);
  await db.query(
    `INSERT INTO payments (id, order_id, gateway, amount_cents, client_secret, status, refund_id, refunded_at)
     VALUES ($1, $2, $3, $4, '', 'refunded', $5, now())
     ON CONFLICT (id) DO UPDATE SET status = 'refunded', refund_id = coalesce(payments.refund_id, EXCLUDED.refund_id),
       refunded_at = coalesce(payments.refunded_at, EXCLUDED.refunded_at)`,
    [intent.id, intent.orderId, payments.kind, intent.amountCents, refund.id],
  );
  logger.warn({ orderId: intent.orderId, intentId: intent.id, refundId: refund.id, order: outcome }, 'refunded a payment for an order that was let go');
  return 'refunded';
}
