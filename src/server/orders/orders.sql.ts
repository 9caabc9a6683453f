// The statements of orders.service.ts over orders and order_items: cancel, pay, delete, forget a buyer.
// The service owns the rules and the transactions (and so the order of the locks); placing.ts places.
import type { Queryable } from '../db/client.ts';
import { ORDER_REFUND_JOIN } from '../payments/payment-reads.ts';
import { ORDER_SELECT, type HeldLine, type OrderRow } from './order-rows.ts';

/** Cancels an order only while it is unpaid; undefined when it no longer is (or is gone). */
export const cancelUnpaid = async (db: Queryable, id: string, reason: string) =>
  (
    await db.query<{ id: string }>(
      `UPDATE orders SET payment = 'cancelled', cancel_reason = $2 WHERE id = $1 AND payment = 'unpaid' RETURNING id`,
      [id, reason],
    )
  )[0] as { id: string } | undefined;

export const setPaid = (db: Queryable, id: string, intentId: string) =>
  db.query(`UPDATE orders SET payment = 'paid', transaction_id = $2, paid_at = now() WHERE id = $1`, [id, intentId]);

/** Deletes an order (its lines go with it). */
export const deleteOrder = (db: Queryable, id: string) => db.query('DELETE FROM orders WHERE id = $1', [id]);

/** The buyer's lock over their unpaid orders (placing takes it too), held until the transaction ends. */
export const lockUnpaidOrdersOf = (db: Queryable, email: string) =>
  db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`unpaid-orders:${email}`]);

/** The ids of the buyer's unpaid orders, their rows locked in id order. */
export const lockUnpaidOrders = (db: Queryable, email: string, buyerUid: string) =>
  db.query<{ id: string }>(
    `SELECT id FROM orders WHERE email = $1 AND buyer_uid = $2 AND payment = 'unpaid' ORDER BY id FOR UPDATE`,
    [email, buyerUid],
  );

/** Every line of every such order, in tool-id order (as every writer locks tools). */
export const heldLinesOf = (db: Queryable, orderIds: string[]) =>
  db.query<HeldLine>(
    `SELECT tool_id, sum(quantity)::int AS quantity, stock_version FROM order_items WHERE order_id = ANY($1)
     GROUP BY tool_id, stock_version ORDER BY tool_id, stock_version`,
    [orderIds],
  );

/** These orders as the reads show them. */
export const selectOrders = (db: Queryable, ids: string[]) =>
  db.query<OrderRow>(`${ORDER_SELECT} WHERE o.id = ANY($1)`, [ids]);

/** Deletes these orders and the buyer's cancelled ones that no refund was made for. */
export const deleteOrdersAndUnrefunded = (db: Queryable, ids: string[], email: string, buyerUid: string) =>
  db.query(
    `DELETE FROM orders WHERE id = ANY($1) OR id IN (
       SELECT o.id FROM orders o ${ORDER_REFUND_JOIN}
       WHERE o.email = $2 AND o.buyer_uid = $3 AND o.payment = 'cancelled' AND r.refund_id IS NULL)`,
    [ids, email, buyerUid],
  );

/** Puts `name` in place of the buyer's name and address on their orders, and clears the phone. */
export const anonymiseOrders = (db: Queryable, email: string, buyerUid: string, name: string) =>
  db.query(`UPDATE orders SET user_name = $3, address = $3, phone = '' WHERE email = $1 AND buyer_uid = $2`, [
    email,
    buyerUid,
    name,
  ]);
