// The statements of refunds.service.ts over refunds and an order's refunded amount. The service owns the
// rules: what may be refunded, and the three steps with their transactions.
import type { Queryable } from '../db/client.ts';
import type { BreakdownColumns } from './order-events.ts';

/** The order as ORDER_FOR_REFUND reads it (its breakdown columns too, for the event's facts). */
export interface RefundableOrder extends BreakdownColumns {
  id: string;
  payment: string;
  transaction_id: string | null;
  total_cents: number | string;
  refunded_cents: number | string;
  restocked: boolean;
  email: string;
  user_name: string;
  address: string;
  expires_at: string | Date;
  items: { toolId: string | null; productName: string; priceCents: number; quantity: number }[] | null;
}

export interface PendingRefund {
  id: string;
  payment_id: string;
  amount_cents: number | string;
  restock: boolean;
}

const ORDER_FOR_REFUND = `SELECT o.id, o.payment, o.transaction_id, o.total_cents, o.refunded_cents, o.restocked, o.email,
  o.user_name, o.address, o.expires_at, o.subtotal_cents, o.discount_cents, o.delivery_cents, o.tax_cents, o.tax_included,
  o.vat_rate_hundredths, o.discount_code,
  (SELECT json_agg(json_build_object('toolId', i.tool_id, 'productName', i.product_name, 'priceCents', i.unit_price_cents,
    'quantity', i.quantity) ORDER BY i.line) FROM order_items i WHERE i.order_id = o.id) AS items
  FROM orders o WHERE o.id = $1 FOR UPDATE OF o`;

/** The order with its lines, its row locked for the caller's transaction. */
export const lockForRefund = async (db: Queryable, orderId: string) =>
  (await db.query<RefundableOrder>(ORDER_FOR_REFUND, [orderId]))[0] as RefundableOrder | undefined;

/** The order's refund still pending, if any. */
export const selectPendingRefund = async (db: Queryable, orderId: string) =>
  (
    await db.query<PendingRefund & { created_at: string | Date }>(
      `SELECT id, payment_id, amount_cents, restock, created_at FROM refunds WHERE order_id = $1 AND state = 'pending'`,
      [orderId],
    )
  )[0] as (PendingRefund & { created_at: string | Date }) | undefined;

/** Writes a refund as asked, pending. */
export const insertRefund = (db: Queryable, refund: PendingRefund, orderId: string, by: string, at: Date) =>
  db.query(
    `INSERT INTO refunds (id, order_id, payment_id, amount_cents, restock, by_email, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [refund.id, orderId, refund.payment_id, refund.amount_cents, refund.restock, by, at],
  );

/** The order's refunded amount now, and whether its units went back (once). */
export const setRefunded = (db: Queryable, orderId: string, refundedCents: number, restocked: boolean) =>
  db.query(`UPDATE orders SET refunded_cents = $2, restocked = restocked OR $3 WHERE id = $1`, [
    orderId,
    refundedCents,
    restocked,
  ]);

export const markRefundDone = (db: Queryable, id: string, providerRefundId: string, creditNote: string) =>
  db.query(
    `UPDATE refunds SET state = 'done', provider_refund_id = $2, credit_note = $3, done_at = now() WHERE id = $1`,
    [id, providerRefundId, creditNote],
  );

export const markRefundFailed = (db: Queryable, id: string, error: string) =>
  db.query(`UPDATE refunds SET state = 'failed', last_error = $2 WHERE id = $1`, [id, error]);
