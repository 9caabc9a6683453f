import { Hono } from 'hono';
import { idSchema, reviewHiddenSchema, reviewInputSchema, reviewsQuerySchema } from '../../lib/schemas.ts';
import { adminOnly, signedIn } from '../auth/guards.ts';
import { cachedJson } from '../http/cache.ts';
import { notFound } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { newId } from '../ids.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { ReviewsPage } from '../../lib/entities.ts';
import { ttlCache } from '../cache.ts';
import { reviewsService } from './reviews.service.ts';

// Cached pages hold at most this many reviews in all (a page holds up to 100): limit × page is chosen
// by the caller, so the cache is bounded by what it holds, not only by how many pages.
const MAX_CACHED_REVIEWS = 20_000;

export function reviewsRoutes(deps: Deps) {
  const reviews = reviewsService(deps.db);
  // Pages are cached like the catalogue: dropped on our writes, at most 5 s old for writes made by other
  // processes sharing one PostgreSQL. A cached page is the same object, so cachedJson serialises it once.
  const pages = ttlCache<ReviewsPage>({ ttlMs: 5000, maxEntries: 1000, maxWeight: MAX_CACHED_REVIEWS, weigh: (p) => p.services.length });
  // Dropped on every reviews change announced on the bus, by this server or another sharing the database.
  deps.changes.subscribe((change) => {
    if (change !== 'reviews') return;
    reviews.dropHidden();
    pages.drop();
  });
  const forget = () => deps.changes.announce('reviews');
  const page = (limit: number, pageNumber: number) => pages.get(`${limit}:${pageNumber}`, () => reviews.publicPage(limit, pageNumber));

  return new Hono<AppEnv>()
    .get('/reviews', async (c) => {
      const { limit, pageNumber } = parse(reviewsQuerySchema, c.req.query());
      // One copy per page whatever else the URL carries (public-reads.ts keys its copies by this).
      return cachedJson(c, await page(limit, pageNumber), 0, `/api/reviews?limit=${limit}&pageNumber=${pageNumber}`);
    })
    .post(
      '/review',
      signedIn(deps),
      rateLimit(deps, { name: 'reviews', points: deps.config.reviewRateLimit, windowMs: 3600_000, by: 'user' }),
      async (c) => {
        const input = await jsonBody(c, reviewInputSchema);
        const insertedId = newId();
        // addedBy is the signed-in user, whatever the body says.
        await reviews.add(input, c.get('user').email, insertedId);
        forget();
        return c.json({ acknowledged: true, insertedId }, 201);
      },
    )
    .get('/reviews/moderation', adminOnly(deps), async (c) => {
      const { limit, pageNumber } = parse(reviewsQuerySchema, c.req.query());
      c.header('Cache-Control', 'no-store');
      return c.json(await reviews.moderationPage(limit, pageNumber));
    })
    .put('/reviews/hide/:id', adminOnly(deps), async (c) => {
      const { hidden } = await jsonBody(c, reviewHiddenSchema);
      const matchedCount = await reviews.setHidden(parse(idSchema, c.req.param('id')), hidden);
      if (!matchedCount) throw notFound('Review');
      forget();
      return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
    });
}
