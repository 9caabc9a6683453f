import { z } from 'zod';
import { ordersContract } from '../../lib/contracts/orders.ts';
import { orderListQuerySchema } from '../../lib/schemas.ts';
import { adminOnly, selfOrAdmin, signedIn } from '../auth/guards.ts';
import { isBuyer } from '../users/user-rules.ts';
import { messages } from '../../lib/messages.ts';
import { contractRouter } from '../http/contract-router.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import { ordersRateLimit } from '../http/rate-limit.ts';
import { decodeCursor, pageAsk, seqKeySchema } from '../db/paging.ts';
import type { Deps } from '../types.ts';
import type { CheckoutFlow } from '../checkout/checkout.flow.ts';
import type { OrdersService } from './orders.service.ts';
import type { FulfilmentService } from './fulfilment.service.ts';
import type { RefundsService } from './refunds.service.ts';

/** The query fields of GET /booking that ask for a page rather than the spec's array. */
const LIST_FIELDS = new Set(Object.keys(orderListQuerySchema.shape));
/** A cursor of the orders sorted by total: the total in cents (as text: a bigint) and the order's number. */
const totalKeySchema = z.tuple([z.string().regex(/^\d{1,18}$/), seqKeySchema]);

/** After the sale: the invoices, shipping and delivery, refunds. */
interface AfterSale {
  invoices: InvoicesService;
  fulfilment: FulfilmentService;
  refunds: RefundsService;
}

export function ordersRoutes(
  deps: Deps,
  orders: OrdersService,
  checkout: CheckoutFlow,
  { invoices, fulfilment, refunds }: AfterSale,
) {
  const bookingLimit = ordersRateLimit(deps);
  return (
    contractRouter(deps)
      // Any spec fields the browser adds (productName, price, userName, email, payment) are dropped by the schema.
      // Per buyer: one account cannot flood the stock with orders (unpaid ones are also capped, in placing.ts).
      .on(ordersContract.create, signedIn(deps), bookingLimit, async (c, { body }) => ({
        acknowledged: true,
        insertedId: await checkout.placeOne(c.get('user'), body),
      }))
      // A cart: one order with several lines, all or nothing. Same limits as /booking (one shared count).
      .on(ordersContract.placeCart, signedIn(deps), bookingLimit, async (c, { body }) => ({
        acknowledged: true,
        insertedId: await checkout.placeCart(c.get('user'), body),
      }))
      // Without any query, every order (the spec's array); with paging, search, filters or a sort, a page
      // of the matching orders and how many match (Manage All Orders).
      .on(ordersContract.list, adminOnly(deps), async (c, { query }) => {
        if (!Object.keys(c.req.query()).some((name) => LIST_FIELDS.has(name))) return orders.list();
        const key = query.sort === 'total-desc' || query.sort === 'total-asc' ? totalKeySchema : seqKeySchema;
        return orders.find(query, query.cursor === undefined ? undefined : decodeCursor(query.cursor, key));
      })
      .on(ordersContract.ofUser, selfOrAdmin(deps), async (c, { params: { email }, query }) => {
        const user = c.get('user');
        // A buyer sees what their own Firebase account placed, not an earlier account's orders under the same email.
        const buyerUid = user.role === 'admin' ? undefined : user.uid;
        const ask = pageAsk(query, seqKeySchema);
        return ask ? orders.page(ask, email, buyerUid) : orders.list(email, buyerUid);
      })
      // The order with its history (placed, paid, shipped …) and its invoice and credit notes.
      .on(ordersContract.get, signedIn(deps), async (c, { params }) => {
        const order = await orders.getRow(params.id);
        if (!order) throw notFound('Order');
        const user = c.get('user');
        if (user.role !== 'admin' && !isBuyer(user, order)) throw forbidden();
        return (await fulfilment.detail(order.id))!;
      })
      // The invoice as a PDF, for its buyer or an admin; an unpaid order has none yet (409).
      .on(ordersContract.invoice, signedIn(deps), async (c, { params }) => {
        const order = await orders.getRow(params.id);
        if (!order) throw notFound('Order');
        const user = c.get('user');
        if (user.role !== 'admin' && !isBuyer(user, order)) throw forbidden();
        const [invoice] = (await invoices.forOrder(deps.db, order.id)).filter((d) => d.kind === 'invoice');
        if (!invoice) throw conflict(messages.invoiceUnpaid);
        const pdf = await invoices.pdf(invoice);
        return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${invoice.number}.pdf"`,
        });
      })
      .on(ordersContract.remove, signedIn(deps), async (c, { params }) => {
        await checkout.remove(c.get('user'), params.id);
        return { acknowledged: true, deletedCount: 1 };
      })
      // The spec's call sends no body; the ship form sends the carrier and tracking number.
      .on(ordersContract.ship, adminOnly(deps), async (c, { params, body }) => {
        const order = await fulfilment.markShipped(params.id, c.get('user').email, body);
        return { acknowledged: true, matchedCount: 1, modifiedCount: 1, order };
      })
      // Admins give back a paid order's money (all that is left, or `amount`), restocking its units if asked.
      .on(ordersContract.refund, adminOnly(deps), async (c, { params, body }) => {
        const refund = await refunds.refund(params.id, c.get('user').email, body);
        return { acknowledged: true, refund, order: (await fulfilment.detail(params.id))! };
      })
      .on(ordersContract.deliver, adminOnly(deps), async (c, { params }) => {
        const order = await fulfilment.markDelivered(params.id, c.get('user').email);
        return { acknowledged: true, matchedCount: 1, modifiedCount: 1, order };
      }).app
  );
}
