import { Hono } from 'hono';
import { emailSchema, idSchema, orderInputSchema } from '../../lib/schemas';
import { adminOnly, pathEmail, selfOrAdmin, signedIn } from '../auth/guards';
import { forbidden, notFound } from '../http/errors';
import { jsonBody, parse } from '../http/validate';
import type { AppEnv, Deps } from '../types';
import { orderJson, type OrdersService } from './orders.service';

export function ordersRoutes(deps: Deps, orders: OrdersService) {
  const idParam = (c: { req: { param(name: string): string | undefined } }) => parse(idSchema, c.req.param('id'));
  return (
    new Hono<AppEnv>()
      // Any spec fields the browser adds (productName, price, userName, email, payment) are dropped by the schema.
      .post('/booking', signedIn(deps), async (c) => {
        const input = await jsonBody(c, orderInputSchema);
        const insertedId = await orders.place(c.get('user'), input);
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      .get('/booking', adminOnly(deps), async (c) => c.json(await orders.list()))
      .get('/booking/email/:email', selfOrAdmin(deps), async (c) =>
        c.json(await orders.list(parse(emailSchema, pathEmail(c)))),
      )
      .get('/booking/:id', signedIn(deps), async (c) => {
        await orders.expireHolds();
        const order = await orders.getRow(idParam(c));
        if (!order) throw notFound('Order');
        const user = c.get('user');
        if (user.role !== 'admin' && order.email !== user.email) throw forbidden();
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
