import { Hono } from 'hono';
import { cartOrderInputSchema, emailSchema, idSchema, orderInputSchema } from '../../lib/schemas.ts';
import { adminOnly, isBuyer, pathEmail, selfOrAdmin, signedIn } from '../auth/guards.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { pageAsk, seqKeySchema } from '../http/paging.ts';
import type { AppEnv, Deps } from '../types.ts';
import { orderJson, type OrdersService } from './orders.service.ts';

export function ordersRoutes(deps: Deps, orders: OrdersService) {
  const bookingLimit = rateLimit(deps, { name: 'orders', points: deps.config.bookingRateLimit, windowMs: 60_000, by: 'user' });
  const idParam = (c: { req: { param(name: string): string | undefined } }) => parse(idSchema, c.req.param('id'));
  return (
    new Hono<AppEnv>()
      // Any spec fields the browser adds (productName, price, userName, email, payment) are dropped by the schema.
      // Per buyer: one account cannot flood the stock with orders (unpaid ones are also capped, in place()).
      .post('/booking', signedIn(deps), bookingLimit, async (c) => {
        const input = await jsonBody(c, orderInputSchema);
        const insertedId = await orders.placeOne(c.get('user'), input);
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      // A cart: one order with several lines, all or nothing. Same limits as /booking (one shared count).
      .post('/orders', signedIn(deps), bookingLimit, async (c) => {
        const cart = await jsonBody(c, cartOrderInputSchema);
        const insertedId = await orders.placeCart(c.get('user'), cart);
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      // With limit or cursor, a page and the total (the dashboard's lists); without, every order (the spec's array).
      .get('/booking', adminOnly(deps), async (c) => {
        const ask = pageAsk(c.req.query(), seqKeySchema);
        return c.json(ask ? await orders.page(ask) : await orders.list());
      })
      .get('/booking/email/:email', selfOrAdmin(deps), async (c) => {
        const user = c.get('user');
        const email = parse(emailSchema, pathEmail(c));
        // A buyer sees what their own Firebase account placed, not an earlier account's orders under the same email.
        const buyerUid = user.role === 'admin' ? undefined : user.uid;
        const ask = pageAsk(c.req.query(), seqKeySchema);
        return c.json(ask ? await orders.page(ask, email, buyerUid) : await orders.list(email, buyerUid));
      })
      .get('/booking/:id', signedIn(deps), async (c) => {
        await orders.expireHolds();
        const order = await orders.getRow(idParam(c));
        if (!order) throw notFound('Order');
        const user = c.get('user');
        if (user.role !== 'admin' && !isBuyer(user, order)) throw forbidden();
        return c.json(orderJson(order));
      })
      .delete('/booking/dlt/:id', signedIn(deps), async (c) => {
        await orders.remove(c.get('user'), idParam(c));
        return c.json({ acknowledged: true, deletedCount: 1 });
      })
      .put('/booking/ship/:id', adminOnly(deps), async (c) => {
        await orders.markShipped(idParam(c));
        return c.json({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
      })
  );
}
