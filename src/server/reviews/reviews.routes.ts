import { Hono } from 'hono';
import { idSchema, reviewHiddenSchema, reviewInputSchema, reviewsQuerySchema } from '../../lib/schemas.ts';
import { adminOnly, signedIn } from '../auth/guards.ts';
import { cachedJson } from '../http/cache.ts';
import { notFound } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { newId } from '../ids.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { Db } from '../db/client.ts';
import { DEFAULT_REVIEW_PAGE_SIZE } from '../../lib/limits.ts';
import { reviewsService, type Page, type PublicReviewRow } from './reviews.service.ts';

/** The home page's first page of reviews, for the prebuilt HTML. */
export function firstReviewsPage(db: Db) {
  return reviewsService(db).publicPage(DEFAULT_REVIEW_PAGE_SIZE, 0);
}

// Cached pages hold at most this many reviews in all (a page holds up to 100): limit × page is chosen
// by the caller, so the cache is bounded by what it holds, not only by how many pages.
const MAX_CACHED_REVIEWS = 20_000;

export function reviewsRoutes(deps: Deps) {
  const reviews = reviewsService(deps.db);
  // Pages are cached like the catalogue: dropped on our writes, at most 5 s old for writes made by other
  // processes sharing one PostgreSQL. A cached page is the same object, so cachedJson serialises it once.
  const pages = new Map<string, { value: Page<PublicReviewRow>; at: number }>();
  let held = 0;
  let generation = 0; // a page read while a review was added or moderated is answered but not kept
  // Dropped on every reviews change announced on the bus, by this server or another sharing the database.
  deps.changes.subscribe((change) => {
    if (change !== 'reviews') return;
    reviews.dropHidden();
    pages.clear();
    held = 0;
    generation++;
  });
  const forget = () => deps.changes.announce('reviews');
  const page = async (limit: number, pageNumber: number) => {
    const key = `${limit}:${pageNumber}`;
    const hit = pages.get(key);
    if (hit && Date.now() - hit.at <= 5000) return hit.value;
    const started = generation;
    const value = await reviews.publicPage(limit, pageNumber);
    if (started === generation) {
      if (hit) held -= hit.value.services.length;
      if (pages.size >= 1000 || held + value.services.length > MAX_CACHED_REVIEWS) {
        pages.clear();
        held = 0;
      }
      pages.set(key, { value, at: Date.now() });
      held += value.services.length;
    }
    return value;
  };

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
