// Composes the API: one router per feature, mounted under /api. Nothing else lives here.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import type Stripe from 'stripe';
import { accountRoutes } from './account/account.routes.ts';
import { accountService } from './account/account.service.ts';
import { auditRoutes } from './audit/audit.routes.ts';
import { auditService } from './audit/audit.service.ts';
import { contactRoutes } from './contact/contact.routes.ts';
import { contactService } from './contact/contact.service.ts';
import { onError } from './http/errors.ts';
import { exchangeRoutes } from './exchange/exchange.routes.ts';
import { exchangeService } from './exchange/exchange.service.ts';
import { imagesRoutes } from './images/images.routes.ts';
import { checkoutFlow } from './checkout/checkout.flow.ts';
import { outbox } from './events/outbox.ts';
import { invoicesService } from './invoices/invoices.service.ts';
import { emailConsumer } from './emails/email-consumer.ts';
import { emailsRoutes } from './emails/emails.routes.ts';
import { emailsService, smtpMailer } from './emails/emails.service.ts';
import { ordersRoutes } from './orders/orders.routes.ts';
import { ordersService } from './orders/orders.service.ts';
import { fulfilmentService } from './orders/fulfilment.service.ts';
import { refundsService } from './orders/refunds.service.ts';
import { paymentsRoutes } from './payments/payments.routes.ts';
import { paymentsService } from './payments/payments.service.ts';
import { quotesRoutes } from './quotes/quotes.routes.ts';
import { quotesService } from './quotes/quotes.service.ts';
import { reviewsRoutes } from './reviews/reviews.routes.ts';
import { reviewsService } from './reviews/reviews.service.ts';
import { toolsRoutes } from './tools/tools.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { settingsService } from './settings/settings.service.ts';
import { discountsRoutes } from './discounts/discounts.routes.ts';
import { discountsService } from './discounts/discounts.service.ts';
import { checkoutRoutes } from './checkout/checkout.routes.ts';
import { metaRoutes } from './meta/meta.routes.ts';
import { toolsService } from './tools/tools.service.ts';
import type { AppEnv, Deps } from './types.ts';
import { usersRoutes } from './users/users.routes.ts';
import { signedInUsers } from './users/user-rules.ts';
import type { Gather } from './db/batched.ts';
import { usersService } from './users/users.service.ts';
import { secretBox } from './webhooks/signing.ts';
import { webhookWorker } from './webhooks/webhook-worker.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import { webhooksService } from './webhooks/webhooks.service.ts';

/**
 * How long a committed event waits for others to share its outbox run (emails and webhooks). 200 ms saved
 * PostgreSQL half a statement per order while orders flowed, but the first rush after a start on PGlite
 * went from p99 99–127 ms to 135–150 (bench/before-after.md, 2026-12-03): 50 it stays.
 */
const NUDGE_MS = 50;
/** The longest it waits for requests in flight to be answered first. */
const NUDGE_MAX_MS = 1000;
/** How long a batch of a burst (user lookups, one-line orders) waits for the rest of it (db/batched.ts). */
const GATHER_MS = 5;

export function createApp(given: Omit<Deps, 'signedInUser'>, options: { stripe?: Stripe } = {}) {
  // Requests being answered: work of a burst gathers only while others are in flight.
  let answering = 0;
  const gather: Gather = { ms: GATHER_MS, when: () => answering > 1 };
  const deps: Deps = { ...given, signedInUser: signedInUsers(given.db, given.changes, gather) };
  const tools = toolsService(deps.db, deps.changes, { lowStockUnits: deps.config.lowStockUnits });
  // After the sale: invoices issued with payments, and the outbox that turns events into emails.
  const invoices = invoicesService(deps.config.shop);
  const emails = emailsService(deps.db, {
    mailer: deps.mailer ?? (deps.config.mail.smtpUrl ? smtpMailer(deps.config.mail.smtpUrl) : undefined),
    from: deps.config.mail.from,
    attachment: async (ref) => {
      const document = await invoices.byNumber(deps.db, ref.number);
      if (!document) throw new Error(`${ref.document} ${ref.number} not found`);
      return {
        filename: `${ref.number}.pdf`,
        content: Buffer.from(await invoices.pdf(document)),
        contentType: 'application/pdf',
      };
    },
  });
  const events = outbox(deps.db, [
    emailConsumer(deps.db, emails, { shop: deps.config.shop, shopEmail: deps.config.mail.shopEmail }),
  ]);
  // Outgoing webhooks: their own worker, so a slow receiver never holds up the emails.
  const guard = {
    production: deps.config.production,
    allowPrivate: deps.config.webhooks.allowPrivate,
    resolve: deps.resolveHost,
  };
  const box = secretBox(deps.jwtSecret);
  const hooks = webhookWorker(deps.db, { guard, box });
  const webhooks = webhooksService(deps.db, { guard, box, due: () => hooks.nudge() });
  /**
   * Events were committed here: their emails and webhooks go within NUDGE_MS, not at the next poll. One
   * run takes every event of that moment: while orders flow, a run per order cost ~10 statements an order.
   */
  let nudging: NodeJS.Timeout | undefined;
  const nudge = (waited: number) => {
    // Buyers waiting for an answer come first: during a rush the run waits (up to NUDGE_MAX_MS), and
    // then takes the whole rush's events at once.
    if (answering > 0 && waited < NUDGE_MAX_MS) {
      nudging = setTimeout(() => nudge(waited + NUDGE_MS), NUDGE_MS).unref();
      return;
    }
    nudging = undefined;
    events.nudge();
    hooks.nudge();
  };
  const eventsWritten = () => {
    nudging ??= setTimeout(() => nudge(NUDGE_MS), NUDGE_MS).unref();
  };
  // Orders and payments know nothing of each other; the checkout flow orchestrates them.
  const orders = ordersService(deps.db, tools, deps.config.orderHoldMs, deps.now, {
    maxUnpaidOrders: deps.config.maxUnpaidOrders,
    invoices,
    lowStockUnits: deps.config.lowStockUnits,
    eventsWritten,
    gather,
  });
  const payments = paymentsService(deps.db, deps.payments);
  const checkout = checkoutFlow(orders, payments, deps.now);
  const refunds = refundsService(deps.db, {
    gateway: deps.payments,
    tools,
    invoices,
    now: deps.now,
    eventsWritten,
  });
  const fulfilment = fulfilmentService(deps.db, { invoices, eventsWritten });
  // Quote requests: an accepted quote is placed as an order through the checkout flow.
  const quotes = quotesService(deps.db, tools, { checkout, now: deps.now, eventsWritten });
  const users = usersService(deps.db, deps.changes, deps.config.adminEmails);
  const reviews = reviewsService(deps.db, deps.changes);
  // A user's own account: a flow over the users, orders and reviews modules.
  const account = accountService(deps, { users, orders, checkout, reviews, tools });

  // Every router binds its routes to their contracts (http/contract-router.ts), and mounting one here
  // merges its part of the OpenAPI document into the API's (meta/openapi.ts).
  const api = new OpenAPIHono<AppEnv>();
  api
    // Only the public reads say how they may be cached (cachedJson, images); every other answer is
    // private or carries a secret (an access token, a client secret, a profile), so no cache keeps it.
    .use(async (c, next) => {
      answering++;
      try {
        await next();
      } finally {
        answering--;
      }
      if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
      // The route that answered, for the request's trace (none matched: the path stays unnamed).
      if (c.req.routePath !== '/api/*') c.env?.route?.(c.req.routePath);
    })
    .route(
      '/',
      metaRoutes(deps, () => api),
    )
    .route('/', toolsRoutes(deps, tools))
    .route('/', usersRoutes(deps, users))
    .route('/', ordersRoutes(deps, orders, checkout, { invoices, fulfilment, refunds }))
    .route('/', emailsRoutes(deps, emails))
    .route('/', paymentsRoutes(deps, checkout, payments, options.stripe))
    .route('/', reviewsRoutes(deps, reviews, tools))
    .route('/', accountRoutes(deps, account))
    .route('/', imagesRoutes(deps))
    .route('/', quotesRoutes(deps, quotes))
    .route('/', contactRoutes(deps, contactService(deps.db)))
    .route('/', auditRoutes(deps, auditService(deps.db)))
    .route('/', settingsRoutes(deps, settingsService(deps.db)))
    .route('/', discountsRoutes(deps, discountsService(deps.db)))
    .route('/', webhooksRoutes(deps, webhooks))
    .route('/', checkoutRoutes(deps, tools))
    .route('/', exchangeRoutes(deps, exchangeService(deps.db, tools)));

  const app = new Hono<AppEnv>()
    .route('/api', api)
    .notFound((c) => c.json({ error: { code: 'not_found', message: 'No such API route' } }, 404))
    .onError(onError);
  return { app, tools, orders, checkout, users, reviews, invoices, emails, outbox: events, webhooks: hooks };
}
export type Api = ReturnType<typeof createApp>;
