import { quotesContract } from '../../lib/contracts/quotes.ts';
import { adminOnly, signedIn } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { pageAsk, seqKeySchema } from '../db/paging.ts';
import { ordersRateLimit } from '../http/rate-limit.ts';
import type { Deps } from '../types.ts';
import type { QuotesService } from './quotes.service.ts';

export function quotesRoutes(deps: Deps, quotes: QuotesService) {
  // Asking and accepting count with placing orders, beside the cap on open requests (quotes.service.ts).
  const bookingLimit = ordersRateLimit(deps);
  return (
    contractRouter(deps)
      // Signed in: the buyer is the token's user, never the body's.
      .on(quotesContract.request, signedIn(deps), bookingLimit, async (c, { body }) => ({
        acknowledged: true,
        insertedId: await quotes.request(c.get('user'), body),
      }))
      // The caller's quotes (an admin: all), newest first; `state` filters; `limit`/`cursor` ask for a page.
      .on(quotesContract.list, signedIn(deps), async (c, { query }) =>
        quotes.list(c.get('user'), query.state, pageAsk(query, seqKeySchema)),
      )
      // Its buyer or an admin; anyone else 404.
      .on(quotesContract.get, signedIn(deps), async (c, { params }) => quotes.get(c.get('user'), params.id))
      .on(quotesContract.answer, adminOnly(deps), async (c, { params, body }) =>
        quotes.answer(c.get('user'), params.id, body),
      )
      // Its buyer only: an order at the quoted prices (counted with the buyer's other orders).
      .on(quotesContract.accept, signedIn(deps), bookingLimit, async (c, { params, body }) => ({
        acknowledged: true,
        insertedId: await quotes.accept(c.get('user'), params.id, body),
      }))
      .on(quotesContract.decline, signedIn(deps), async (c, { params }) => quotes.decline(c.get('user'), params.id)).app
  );
}
