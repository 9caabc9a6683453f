import { Hono } from 'hono';
import { idSchema, reviewHiddenSchema, reviewInputSchema, reviewsQuerySchema } from '../../lib/schemas.ts';
import { adminOnly, signedIn } from '../auth/guards.ts';
import { cachedJson } from '../http/cache.ts';
import { notFound } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { newId } from '../ids.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { ReviewsService } from './reviews.service.ts';

export function reviewsRoutes(deps: Deps, reviews: ReviewsService) {
  return new Hono<AppEnv>()
    .get('/reviews', async (c) => {
      const { limit, pageNumber } = parse(reviewsQuerySchema, c.req.query());
      // One copy per page whatever else the URL carries (public-reads.ts keys its copies by this).
      return cachedJson(
        c,
        await reviews.publicPage(limit, pageNumber),
        0,
        `/api/reviews?limit=${limit}&pageNumber=${pageNumber}`,
      );
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
      return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
    });
}
