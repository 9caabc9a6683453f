// What an order's events say (events/events.service.ts): each carries the facts its consumers need
// (the buyer, the lines, the total, when the hold ends), as they were when it happened, so an email
// never reads an order that changed or went since. Written in the transaction of the change.
import type { Breakdown } from '../../lib/totals.ts';
import type { Queryable } from '../db/client.ts';
import { emit, emitMany, type EventType } from '../events/events.service.ts';

export interface OrderFacts {
  email: string;
  buyerName: string;
  address: string;
  lines: { productName: string; quantity: number; unitCents: number }[];
  totalCents: number;
  /** The amounts behind the total (issue 27); events written before it have none. */
  breakdown?: Breakdown;
  /** When an unpaid order's hold runs out. */
  expiresAt: string;
}

/** An order row's breakdown columns as placed (null on orders placed before checkout totals: all goods). */
export interface BreakdownColumns {
  subtotal_cents?: number | string | null;
  discount_cents?: number | string | null;
  delivery_cents?: number | string | null;
  tax_cents?: number | string | null;
  tax_included?: boolean | null;
  vat_rate_hundredths?: number | null;
  discount_code?: string | null;
}

/** The facts of an order row as ORDER_SELECT reads it. */
export function factsOf(
  row: BreakdownColumns & {
    email: string;
    user_name: string;
    address: string;
    total_cents: number | string;
    expires_at: string | Date;
    items: { productName: string; priceCents: number; quantity: number }[] | null;
  },
): OrderFacts {
  return {
    email: row.email,
    buyerName: row.user_name,
    address: row.address,
    lines: (row.items ?? []).map((i) => ({
      productName: i.productName,
      quantity: i.quantity,
      unitCents: i.priceCents,
    })),
    totalCents: Number(row.total_cents),
    breakdown: {
      subtotalCents: Number(row.subtotal_cents ?? row.total_cents),
      discountCents: Number(row.discount_cents ?? 0),
      deliveryCents: Number(row.delivery_cents ?? 0),
      taxCents: Number(row.tax_cents ?? 0),
      taxIncluded: row.tax_included ?? false,
      vatRateHundredths: Number(row.vat_rate_hundredths ?? 0),
      discountCode: row.discount_code ?? null,
    },
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

export type OrderEventType = Extract<EventType, `order.${string}`>;

/** One order event, in the caller's transaction. `by`: who did it (null: the store, e.g. a hold that ran out). */
export const emitOrderEvent = (
  tx: Queryable,
  type: OrderEventType,
  orderId: string,
  by: string | null,
  facts: OrderFacts,
  extra: Record<string, unknown> = {},
) => emit(tx, { type, subject: orderId, actor: by, data: { ...facts, ...extra } });

/** Orders placed together (one batch), one event each. */
export const emitOrdersPlaced = (tx: Queryable, placed: { id: string; by: string; facts: OrderFacts }[]) =>
  emitMany(
    tx,
    'order.placed',
    placed.map((p) => ({ subject: p.id, actor: p.by, data: { ...p.facts } })),
  );

/**
 * Tells the shop when a sale takes a tool below its low-stock level (tool-rows.ts lowStockLevel).
 * Once per crossing.
 */
export async function emitLowStock(
  tx: Queryable,
  tools: { id: string; name: string; before: number; after: number; threshold: number }[],
): Promise<void> {
  // Sent together: a caller may send other statements beside these (db/client.ts).
  await Promise.all(
    tools
      .filter(({ before, after, threshold }) => before >= threshold && after < threshold)
      .map((tool) =>
        emit(tx, {
          type: 'stock.low',
          subject: tool.id,
          actor: null,
          data: { name: tool.name, availableQuantity: tool.after, threshold: tool.threshold },
        }),
      ),
  );
}
