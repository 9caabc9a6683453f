// After the sale, for a paid order (issue 25): shipped with its carrier and tracking number, delivered,
// and read back with its history and documents. Each step only from the step before it (409 saying
// why), with its event in the same transaction (the buyer's email, the audit log). Refunds are
// refunds.service.ts; the order rows themselves are order-rows.ts's.
import type { Order, OrderDetail, OrderStep } from '../../lib/entities.ts';
import { messages } from '../../lib/messages.ts';
import type { ShipmentInput } from '../../lib/schemas.ts';
import type { Db } from '../db/client.ts';
import { eventsAbout } from '../events/events.service.ts';
import { conflict, notFound } from '../errors.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import { emitOrderEvent, factsOf } from './order-events.ts';
import { readOrder as getRow } from './order-rows.ts';
import { orderJson, orderTarget } from './order-rows.ts';

export function fulfilmentService(
  db: Db,
  { invoices, eventsWritten }: { invoices: InvoicesService; eventsWritten: () => void },
) {
  return {
    /**
     * A paid order leaves the shop: with the carrier and tracking number (the spec's call sends none).
     * Only from paid and pending; anything else is a 409 saying why.
     */
    async markShipped(id: string, by: string, shipment?: ShipmentInput): Promise<Order> {
      const order = await db.transaction(async (tx) => {
        const current = await getRow(tx, id, true);
        if (!current) throw notFound('Order');
        if (current.payment !== 'paid') throw conflict(messages.shipUnpaid);
        if (current.shipping_status !== 'pending') throw conflict(messages.shipTwice(current.shipping_status));
        await tx.query(
          `UPDATE orders SET shipping_status = 'shipped', carrier = $2, tracking_number = $3, shipped_at = now() WHERE id = $1`,
          [id, shipment?.carrier ?? null, shipment?.trackingNumber ?? null],
        );
        await emitOrderEvent(tx, 'order.shipped', id, by, factsOf(current), {
          carrier: shipment?.carrier ?? null,
          trackingNumber: shipment?.trackingNumber ?? null,
          // What the audit log shows (Activity).
          target: orderTarget(current),
          before: { shipping: 'pending' },
          after: {
            shipping: 'shipped',
            carrier: shipment?.carrier ?? null,
            tracking: shipment?.trackingNumber ?? null,
          },
        });
        return (await getRow(tx, id))!;
      });
      eventsWritten();
      return orderJson(order);
    },

    /** A shipped order reached its buyer. Only from shipped; otherwise a 409 saying why. */
    async markDelivered(id: string, by: string): Promise<Order> {
      const order = await db.transaction(async (tx) => {
        const current = await getRow(tx, id, true);
        if (!current) throw notFound('Order');
        if (current.payment !== 'paid' || current.shipping_status !== 'shipped')
          throw conflict(messages.deliverUnshipped);
        await tx.query(`UPDATE orders SET shipping_status = 'delivered', delivered_at = now() WHERE id = $1`, [id]);
        await emitOrderEvent(tx, 'order.delivered', id, by, factsOf(current), {
          target: orderTarget(current),
          before: { shipping: 'shipped' },
          after: { shipping: 'delivered' },
        });
        return (await getRow(tx, id))!;
      });
      eventsWritten();
      return orderJson(order);
    },

    /**
     * One order with its history (from its events, oldest first) and its invoice and credit notes. An
     * order from before events were kept gets the steps its own columns still tell.
     */
    async detail(id: string): Promise<OrderDetail | undefined> {
      const row = await getRow(db, id);
      if (!row) return undefined;
      const events = (await eventsAbout(db, id)).filter((e) => e.type.startsWith('order.'));
      const history: OrderStep[] = events.length
        ? events.map((e) => ({
            status: e.type.slice('order.'.length) as OrderStep['status'],
            at: e.at,
            ...(e.actor ? { by: e.actor } : {}),
          }))
        : [
            { status: 'placed', at: new Date(row.created_at).toISOString() },
            ...(row.paid_at ? [{ status: 'paid' as const, at: new Date(row.paid_at).toISOString() }] : []),
          ];
      const documents = await invoices.forOrder(db, id);
      return {
        ...orderJson(row),
        history,
        invoices: documents.map((d) => ({
          number: d.number,
          kind: d.kind,
          amountCents: d.amountCents,
          issuedAt: d.issuedAt,
        })),
      };
    },
  };
}
export type FulfilmentService = ReturnType<typeof fulfilmentService>;
