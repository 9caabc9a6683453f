import { Hono } from 'hono';
import { z } from 'zod';
import { cartOrderInputSchema, emailSchema, idSchema, orderInputSchema, orderListQuerySchema, refundSchema, shipmentSchema } from '../../lib/schemas.ts';
import { adminOnly, isBuyer, pathEmail, selfOrAdmin, signedIn } from '../auth/guards.ts';
import { messages } from '../../lib/messages.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { decodeCursor, pageAsk, seqKeySchema } from '../http/paging.ts';
import type { AppEnv, Deps } from '../types.ts';
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

export function ordersRoutes(deps: Deps, orders: OrdersService, checkout: CheckoutFlow, { invoices, fulfilment, refunds }: AfterSale) {
  const bookingLimit = rateLimit(deps, { name: 'orders', points: deps.config.bookingRateLimit, windowMs: 60_000, by: 'user' });
  const idParam = (c: { req: { param(name: string): string | undefined } }) => parse(idSchema, c.req.param('id'));
  return (
    new Hono<AppEnv>()
      // Any spec fields the browser adds (productName, price, userName, email, payment) are dropped by the schema.
      // Per buyer: one account cannot flood the stock with orders (unpaid ones are also capped, in place()).
      .post('/booking', signedIn(deps), bookingLimit, async (c) => {
        const input = await jsonBody(c, orderInputSchema);
        const insertedId = await checkout.placeOne(c.get('user'), input);
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      // A cart: one order with several lines, all or nothing. Same limits as /booking (one shared count).
      .post('/orders', signedIn(deps), bookingLimit, async (c) => {
        const cart = await jsonBody(c, cartOrderInputSchema);
        const insertedId = await checkout.placeCart(c.get('user'), cart);
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      // Without any query, every order (the spec's array); with paging, search, filters or a sort, a page
      // of the matching orders and how many match (Manage All Orders).
      .get('/booking', adminOnly(deps), async (c) => {
        const query = c.req.query();
        if (!Object.keys(query).some((name) => LIST_FIELDS.has(name))) return c.json(await orders.list());
        const ask = parse(orderListQuerySchema, query);
        const key = ask.sort === 'total-desc' || ask.sort === 'total-asc' ? totalKeySchema : seqKeySchema;
        return c.json(await orders.find(ask, ask.cursor === undefined ? undefined : decodeCursor(ask.cursor, key)));
      })
      .get('/booking/email/:email', selfOrAdmin(deps), async (c) => {
        const user = c.get('user');
        const email = parse(emailSchema, pathEmail(c));
        // A buyer sees what their own Firebase account placed, not an earlier account's orders under the same email.
        const buyerUid = user.role === 'admin' ? undefined : user.uid;
        const ask = pageAsk(c.req.query(), seqKeySchema);
        return c.json(ask ? await orders.page(ask, email, buyerUid) : await orders.list(email, buyerUid));
      })
      // The order with its history (placed, paid, shipped …) and its invoice and credit notes.
      .get('/booking/:id', signedIn(deps), async (c) => {
        const order = await orders.getRow(idParam(c));
        if (!order) throw notFound('Order');
        const user = c.get('user');
        if (user.role !== 'admin' && !isBuyer(user, order)) throw forbidden();
        return c.json(await fulfilment.detail(order.id));
      })
      // The invoice as a PDF, for its buyer or an admin; an unpaid order has none yet (409).
      .get('/booking/:id/invoice', signedIn(deps), async (c) => {
        const order = await orders.getRow(idParam(c));
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
      .delete('/booking/dlt/:id', signedIn(deps), async (c) => {
        await checkout.remove(c.get('user'), idParam(c));
        return c.json({ acknowledged: true, deletedCount: 1 });
      })
      // The spec's call sends no body; the ship form sends the carrier and tracking number.
      .put('/booking/ship/:id', adminOnly(deps), async (c) => {
        const id = idParam(c);
        const sent = c.req.header('content-type') !== undefined || Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;
        const shipment = sent ? await jsonBody(c, shipmentSchema) : undefined;
        const order = await fulfilment.markShipped(id, c.get('user').email, shipment);
        return c.json({ acknowledged: true, matchedCount: 1, modifiedCount: 1, order });
      })
      // Admins give back a paid order's money (all that is left, or `amount`), restocking its units if asked.
      .put('/booking/refund/:id', adminOnly(deps), async (c) => {
        const id = idParam(c);
        const ask = await jsonBody(c, refundSchema);
        const refund = await refunds.refund(id, c.get('user').email, ask);
        return c.json({ acknowledged: true, refund, order: await fulfilment.detail(id) });
      })
      .put('/booking/deliver/:id', adminOnly(deps), async (c) => {
        const order = await fulfilment.markDelivered(idParam(c), c.get('user').email);
        return c.json({ acknowledged: true, matchedCount: 1, modifiedCount: 1, order });
      })
  );
}
