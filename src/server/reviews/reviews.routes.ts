import { Hono } from 'hono';
import type { ToolReviewEligibility } from '../../lib/entities.ts';
import { messages } from '../../lib/messages.ts';
import {
  idSchema,
  reviewHiddenSchema,
  reviewInputSchema,
  reviewsQuerySchema,
  toolReviewsQuerySchema,
} from '../../lib/schemas.ts';
import { adminOnly, signedIn } from '../auth/guards.ts';
import { cachedJson } from '../http/cache.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { decodeCursor, encodeCursor, seqKeySchema } from '../http/paging.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { newId } from '../ids.ts';
import { hasPaidFor } from '../orders/purchases.ts';
import type { ToolsService } from '../tools/tools.service.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { ReviewsService } from './reviews.service.ts';

export function reviewsRoutes(deps: Deps, reviews: ReviewsService, tools: ToolsService) {
  /** The tool named by the :id path parameter; a 404 when there is none. */
  const pathTool = async (id: string | undefined) => {
    const toolId = parse(idSchema, id);
    if (!(await tools.get(toolId))) throw notFound('Tool');
    return toolId;
  };

  return new Hono<AppEnv>()
    .get('/reviews', async (c) => {
      const { limit, pageNumber } = parse(reviewsQuerySchema, c.req.query());
      // One copy per page whatever else the URL carries (public-reads.ts keys its copies by this).
      return cachedJson(
        c,
        await reviews.publicPage(limit, pageNumber),
        { key: `/api/reviews?limit=${limit}&pageNumber=${pageNumber}`, shows: { kinds: ['reviews'] } },
      );
    })
    .get('/tools/:id/reviews', async (c) => {
      // A tool's reviews, newest first, `limit` after `cursor`, with their count and average: public.
      const { limit, cursor } = parse(toolReviewsQuerySchema, c.req.query());
      const before = cursor === undefined ? undefined : decodeCursor(cursor, seqKeySchema);
      const toolId = await pathTool(c.req.param('id'));
      const after = before === undefined ? '' : `&cursor=${encodeCursor(before)}`;
      return cachedJson(
        c,
        await reviews.toolPage(toolId, limit, before),
        // A deleted tool's reviews answer 404: the catalogue's changes count too.
        { key: `/api/tools/${toolId}/reviews?limit=${limit}${after}`, shows: { kinds: ['reviews', 'tools'] } },
      );
    })
    .get('/tools/:id/reviews/eligibility', signedIn(deps), async (c) => {
      // Whether the signed-in user may review this tool now (the tool page's review form asks).
      const toolId = await pathTool(c.req.param('id'));
      const user = c.get('user');
      const [bought, reviewed] = await Promise.all([
        hasPaidFor(deps.db, user, toolId),
        reviews.hasReviewed(toolId, user.email),
      ]);
      const answer: ToolReviewEligibility = {
        canReview: bought && !reviewed,
        reason: reviewed ? 'reviewed' : bought ? null : 'notBuyer',
      };
      return c.json(answer);
    })
    .post(
      '/review',
      signedIn(deps),
      rateLimit(deps, { name: 'reviews', points: deps.config.reviewRateLimit, windowMs: 3600_000, by: 'user' }),
      async (c) => {
        const input = await jsonBody(c, reviewInputSchema);
        const user = c.get('user');
        // With a tool: only its buyers (a paid order for it), once each; verified is ours to say.
        let verified = false;
        if (input.toolId !== undefined) {
          if (!(await tools.get(input.toolId))) throw notFound('Tool');
          verified = await hasPaidFor(deps.db, user, input.toolId);
          if (!verified) throw forbidden(messages.reviewBuyersOnly);
        }
        const insertedId = newId();
        // addedBy is the signed-in user, whatever the body says.
        if (!(await reviews.add(input, user.email, insertedId, verified))) throw conflict(messages.reviewAlreadyPosted);
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
      const matchedCount = await reviews.setHidden(parse(idSchema, c.req.param('id')), hidden, c.get('user').email);
      if (!matchedCount) throw notFound('Review');
      return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
    });
}
