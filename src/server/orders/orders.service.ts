import type { Order } from '../../lib/entities';
import { toDollars } from '../../lib/money';
import { messages } from '../../lib/messages';
import { quantityError, type OrderInput } from '../../lib/schemas';
import type { Db, Queryable } from '../db/client';
import { conflict, forbidden, notFound, unprocessable } from '../http/errors';
import { newId } from '../ids';
import type { ToolsService } from '../tools/tools.service';
import type { CurrentUser } from '../types';

export interface OrderRow {
  id: string;
  tool_id: string | null;
  product_name: string;
  unit_price_cents: number;
  quantity: number;
  user_name: string;
  email: string;
  address: string;
  phone: string;
  payment: 'unpaid' | 'paid' | 'cancelled';
  transaction_id: string | null;
  shipping_status: 'pending' | 'shipped';
  cancel_reason: string | null;
  created_at: string | Date;
  expires_at: string | Date;
}

export const orderJson = (r: OrderRow): Order => ({
  _id: r.id,
  toolId: r.tool_id,
  productName: r.product_name,
  price: toDollars(r.unit_price_cents),
  totalCents: r.unit_price_cents * r.quantity,
  userName: r.user_name,
  email: r.email,
  address: r.address,
  phone: r.phone,
  quantity: r.quantity,
  payment: r.payment,
  transactionId: r.transaction_id,
  shippingStatus: r.shipping_status,
  cancelReason: r.cancel_reason,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
});
export type { Order };

export const HOLD_EXPIRED_REASON = 'Not paid in time: the order was cancelled and its units went back to stock.';

export function ordersService(
  db: Db,
  tools: ToolsService,
  holdMs: number,
  now: () => Date,
  /** Told which orders a hold expiry cancelled (after commit), so their open payments can be cancelled. */
  onHoldsExpired: (orderIds: string[]) => Promise<void> = async () => {},
) {
  /** Cancels unpaid orders whose hold ran out and returns their units, in one transaction. */
  async function expireHolds(): Promise<number> {
    const expired = await db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string; tool_id: string | null; quantity: number }>(
        `UPDATE orders SET payment = 'cancelled', cancel_reason = $2
         WHERE payment = 'unpaid' AND expires_at <= $1 RETURNING id, tool_id, quantity`,
        [now(), HOLD_EXPIRED_REASON],
      );
      for (const r of rows) await tools.giveBack(tx, r.tool_id, r.quantity);
      return rows.map((r) => r.id);
    });
    if (!expired.length) return 0;
    tools.invalidate();
    await onHoldsExpired(expired);
    return expired.length;
  }

  async function getRow(q: Queryable, id: string, lock = false): Promise<OrderRow | undefined> {
    const [row] = await q.query<OrderRow>(`SELECT * FROM orders WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return row;
  }

  return {
    expireHolds,
    getRow: (id: string) => getRow(db, id),

    /** Places an order: price from the tool, buyer from the token, stock taken in the same transaction. */
    async place(user: CurrentUser, input: OrderInput): Promise<string> {
      // Units of holds that ran out are for sale now, not only after the next sweep.
      await expireHolds();
      const id = newId();
      const result = await db.transaction(async (tx) => {
        const sold = await tools.take(tx, input.toolId, input.quantity);
        if (!sold) {
          const [tool] = await tx.query<{ minimum_order_quantity: number; available_quantity: number }>(
            'SELECT minimum_order_quantity, available_quantity FROM tools WHERE id = $1',
            [input.toolId],
          );
          if (!tool) return 'missing' as const;
          return (
            quantityError(input.quantity, {
              minimumOrderQuantity: tool.minimum_order_quantity,
              availableQuantity: tool.available_quantity,
            }) ?? messages.quantityAboveAvailable
          );
        }
        await tx.query(
          `INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, user_name, email, address, phone, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [id, sold.id, sold.name, sold.price_cents, input.quantity, user.name || user.email, user.email, input.address, input.phone,
            new Date(now().getTime() + holdMs)],
        );
        return 'ok' as const;
      });
      if (result === 'missing') throw notFound('Tool');
      if (result !== 'ok') throw unprocessable(result, { quantity: result });
      tools.invalidate();
      return id;
    },

    async list(email?: string): Promise<Order[]> {
      await expireHolds();
      const rows = email
        ? await db.query<OrderRow>('SELECT * FROM orders WHERE email = $1 ORDER BY seq DESC', [email])
        : await db.query<OrderRow>('SELECT * FROM orders ORDER BY seq DESC');
      return rows.map(orderJson);
    },

    /** Deletes an order; an unpaid one gives its units back. Buyers may delete only their unpaid orders. */
    async remove(user: CurrentUser, id: string): Promise<void> {
      await expireHolds();
      const outcome = await db.transaction(async (tx) => {
        const order = await getRow(tx, id, true);
        if (!order) return 'missing';
        const isAdmin = user.role === 'admin';
        if (!isAdmin && order.email !== user.email) return 'forbidden';
        if (!isAdmin && order.payment === 'paid') return 'paid';
        await tx.query('DELETE FROM orders WHERE id = $1', [id]);
        if (order.payment === 'unpaid') await tools.giveBack(tx, order.tool_id, order.quantity);
        return 'ok';
      });
      if (outcome === 'missing') throw notFound('Order');
      if (outcome === 'forbidden') throw forbidden();
      if (outcome === 'paid') throw conflict('A paid order cannot be deleted. Please contact us to cancel it.');
      tools.invalidate();
    },

    async markShipped(id: string): Promise<void> {
      const rows = await db.query<{ payment: string }>(
        `UPDATE orders SET shipping_status = 'shipped' WHERE id = $1 AND payment = 'paid' RETURNING payment`,
        [id],
      );
      if (!rows.length) {
        if (!(await getRow(db, id))) throw notFound('Order');
        throw conflict('Only paid orders can be shipped');
      }
    },

    /**
     * Marks an order paid with the provider's intent id, only for the exact amount owed.
     * Idempotent: the same intent again is fine; a different one on a paid order is a conflict.
     */
    async markPaid(id: string, intentId: string, amountCents: number): Promise<void> {
      const outcome = await db.transaction(async (tx) => {
        const order = await getRow(tx, id, true);
        if (!order) return 'missing';
        if (order.payment === 'paid') return order.transaction_id === intentId ? 'ok' : 'other';
        if (order.payment === 'cancelled') return 'cancelled';
        if (order.quantity * order.unit_price_cents !== amountCents) return 'amount';
        await tx.query(`UPDATE orders SET payment = 'paid', transaction_id = $2, paid_at = now() WHERE id = $1`, [id, intentId]);
        return 'ok';
      });
      if (outcome === 'missing') throw notFound('Order');
      if (outcome === 'other') throw conflict('This order was already paid with another payment');
      if (outcome === 'cancelled') throw conflict(HOLD_EXPIRED_REASON);
      if (outcome === 'amount') throw conflict('The payment amount does not match the order total');
    },
  };
}
export type OrdersService = ReturnType<typeof ordersService>;
