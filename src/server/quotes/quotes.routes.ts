import { Hono } from 'hono';
import { idSchema, quoteAcceptSchema, quoteAnswerSchema, quoteListQuerySchema, quoteRequestSchema } from '../../lib/schemas.ts';
import { adminOnly, signedIn } from '../auth/guards.ts';
import { pageAsk, seqKeySchema } from '../http/paging.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { QuotesService } from './quotes.service.ts';

export function quotesRoutes(deps: Deps, quotes: QuotesService) {
  // Asking and accepting count with placing orders (one count a buyer, BOOKING_RATE_LIMIT a minute),
  // beside the cap on open requests (quotes.service.ts).
  const bookingLimit = rateLimit(deps, { name: 'orders', points: deps.config.bookingRateLimit, windowMs: 60_000, by: 'user' });
  const idParam = (c: { req: { param(name: string): string | undefined } }) => parse(idSchema, c.req.param('id'));
  return (
    new Hono<AppEnv>()
      // Signed in: the buyer is the token's user, never the body's.
      .post('/quotes', signedIn(deps), bookingLimit, async (c) => {
        const insertedId = await quotes.request(c.get('user'), await jsonBody(c, quoteRequestSchema));
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      // The caller's quotes (an admin: all), newest first; `state` filters; `limit`/`cursor` ask for a page.
      .get('/quotes', signedIn(deps), async (c) => {
        const query = c.req.query();
        const { state } = parse(quoteListQuerySchema, { state: query.state });
        return c.json(await quotes.list(c.get('user'), state, pageAsk(query, seqKeySchema)));
      })
      // Its buyer or an admin; anyone else 404.
      .get('/quotes/:id', signedIn(deps), async (c) => c.json(await quotes.get(c.get('user'), idParam(c))))
      .put('/quotes/:id/answer', adminOnly(deps), async (c) => {
        const answer = await jsonBody(c, quoteAnswerSchema);
        return c.json(await quotes.answer(c.get('user'), idParam(c), answer));
      })
      // Its buyer only: an order at the quoted prices (counted with the buyer's other orders).
      .post('/quotes/:id/accept', signedIn(deps), bookingLimit, async (c) => {
        const id = idParam(c);
        const insertedId = await quotes.accept(c.get('user'), id, await jsonBody(c, quoteAcceptSchema));
        return c.json({ acknowledged: true, insertedId }, 201);
      })
      .post('/quotes/:id/decline', signedIn(deps), async (c) => c.json(await quotes.decline(c.get('user'), idParam(c))))
  );
}
