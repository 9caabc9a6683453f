// Composes the API: one router per feature, mounted under /api. Nothing else lives here.
import { Hono } from 'hono';
import type Stripe from 'stripe';
import { contactRoutes } from './contact/contact.routes';
import { onError } from './http/errors';
import { imagesRoutes } from './images/images.routes';
import { ordersRoutes } from './orders/orders.routes';
import { ordersService } from './orders/orders.service';
import { cancelOpenPayments, paymentsRoutes } from './payments/payments.routes';
import { reviewsRoutes } from './reviews/reviews.routes';
import { toolsRoutes } from './tools/tools.routes';
import { toolsService } from './tools/tools.service';
import type { AppEnv, Deps } from './types';
import { usersRoutes } from './users/users.routes';
import { usersService } from './users/users.service';

export function createApp(deps: Deps, options: { stripe?: Stripe } = {}) {
  const tools = toolsService(deps.db);
  const orders = ordersService(deps.db, tools, deps.config.orderHoldMs, deps.now, (orderIds) =>
    cancelOpenPayments(deps, orderIds),
  );
  const users = usersService(deps.db, deps.config.adminEmails);

  const api = new Hono<AppEnv>()
    .get('/health', async (c) => {
      await deps.db.query('SELECT 1');
      return c.json({ ok: true });
    })
    .route('/', toolsRoutes(deps, tools))
    .route('/', usersRoutes(deps, users))
    .route('/', ordersRoutes(deps, orders))
    .route('/', paymentsRoutes(deps, orders, options.stripe))
    .route('/', reviewsRoutes(deps))
    .route('/', imagesRoutes(deps))
    .route('/', contactRoutes(deps));

  const app = new Hono<AppEnv>()
    .route('/api', api)
    .notFound((c) => c.json({ error: { code: 'not_found', message: 'No such API route' } }, 404))
    .onError(onError);
  return { app, tools, orders, users };
}
export type Api = ReturnType<typeof createApp>;
