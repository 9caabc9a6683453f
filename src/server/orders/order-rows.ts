// An order as stored and as the API answers it: the row, its mapping, the one SELECT every read shares.
import { trackingLink } from '../../lib/carriers.ts';
import type { Order, OrderItem } from '../../lib/entities.ts';
import { toDollars } from '../../lib/money.ts';
import { type BreakdownColumns } from './order-events.ts';
import type { Queryable } from '../db/client.ts';
import { ORDER_HAS_OPEN_PAYMENT, ORDER_REFUND_JOIN } from '../payments/payment-reads.ts';

export interface OrderRow extends BreakdownColumns {
  id: string;
  tool_id: string | null;
  product_name: string;
  unit_price_cents: number;
  quantity: number;
  user_name: string;
  email: string;
  /** The Firebase account that placed it (null for orders made before accounts were recorded). */
  buyer_uid: string | null;
  address: string;
  phone: string;
  payment: 'unpaid' | 'paid' | 'cancelled';
  transaction_id: string | null;
  shipping_status: 'pending' | 'shipped' | 'delivered';
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | Date | null;
  delivered_at: string | Date | null;
  cancel_reason: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  paid_at?: string | Date | null;
  /** Given back by an admin's refunds (bigint in the database). */
  refunded_cents?: number | string;
  /** What the order costs, all lines with delivery and VAT (bigint in the database). */
  total_cents: number | string;
  /** The lines (ORDER_SELECT), in the buyer's order. */
  items: { toolId: string | null; productName: string; priceCents: number; quantity: number }[] | null;
  /** From the order's refunded payment, if any (ORDER_SELECT). */
  refund_id?: string | null;
  refund_cents?: number | null;
  refunded_at?: string | Date | null;
}

export const orderJson = (r: OrderRow): Order => ({
  _id: r.id,
  toolId: r.tool_id,
  productName: r.product_name,
  price: toDollars(r.unit_price_cents),
  totalCents: Number(r.total_cents),
  subtotalCents: Number(r.subtotal_cents ?? r.total_cents),
  discountCents: Number(r.discount_cents ?? 0),
  deliveryCents: Number(r.delivery_cents ?? 0),
  taxCents: Number(r.tax_cents ?? 0),
  taxIncluded: r.tax_included ?? false,
  vatRate: (r.vat_rate_hundredths ?? 0) / 100,
  discountCode: r.discount_code ?? null,
  refundedCents: Number(r.refunded_cents ?? 0),
  items: (r.items ?? []).map((i): OrderItem => ({
    toolId: i.toolId,
    productName: i.productName,
    price: toDollars(i.priceCents),
    quantity: i.quantity,
  })),
  userName: r.user_name,
  email: r.email,
  address: r.address,
  phone: r.phone,
  quantity: r.quantity,
  payment: r.payment,
  transactionId: r.transaction_id,
  shippingStatus: r.shipping_status,
  shipment: r.shipped_at
    ? {
        carrier: r.carrier ?? '',
        trackingNumber: r.tracking_number ?? '',
        trackingUrl: (r.carrier && r.tracking_number && trackingLink(r.carrier, r.tracking_number)) || null,
        shippedAt: new Date(r.shipped_at).toISOString(),
        deliveredAt: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
      }
    : null,
  cancelReason: r.cancel_reason,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  refund: r.refund_id
    ? { id: r.refund_id, amountCents: Number(r.refund_cents), refundedAt: new Date(r.refunded_at!).toISOString() }
    : null,
});

/**
 * An order with its refunded payment (a payment can outlive its order, never the other way round).
 * `extra`: more columns, after the shared ones.
 */
const orderSelect = (extra = '') => `SELECT o.*, r.refund_id, r.refund_cents, r.refunded_at,
  (SELECT json_agg(json_build_object('toolId', i.tool_id, 'productName', i.product_name, 'priceCents', i.unit_price_cents,
    'quantity', i.quantity) ORDER BY i.line) FROM order_items i WHERE i.order_id = o.id) AS items${extra}
  FROM orders o
  ${ORDER_REFUND_JOIN}`;
export const ORDER_SELECT = orderSelect();

/** One order as the reads show it; with `lock`, its row locked for the caller's transaction. */
export async function readOrder(q: Queryable, id: string, lock = false): Promise<OrderRow | undefined> {
  const [row] = await q.query<OrderRow>(`${ORDER_SELECT} WHERE o.id = $1${lock ? ' FOR UPDATE OF o' : ''}`, [id]);
  return row;
}

/**
 * One order locked for the caller's transaction, with whether a payment of it is still open with any
 * provider (an unpaid order's payments are closed before it goes).
 */
export async function readOrderToRemove(
  q: Queryable,
  id: string,
): Promise<(OrderRow & { open_payment: boolean }) | undefined> {
  const [row] = await q.query<OrderRow & { open_payment: boolean }>(
    `${orderSelect(`, ${ORDER_HAS_OPEN_PAYMENT} AS open_payment`)} WHERE o.id = $1 FOR UPDATE OF o`,
    [id],
  );
  return row;
}

/** A line as placed, with the restock its units came from (only then do they go back). */
export interface HeldLine {
  tool_id: string | null;
  quantity: number;
  stock_version: number;
}

/** Where a page of Manage All Orders ends: the last order's number, or its total (cents, as text) and number. */
export type OrderCursor = number | [totalCents: string, seq: number];

/** How the audit log names an order: its short reference and its buyer. */
export const orderTarget = (order: { id: string; email: string }) =>
  `Order ${order.id.slice(-8).toUpperCase()} of ${order.email}`;
