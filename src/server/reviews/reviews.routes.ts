import { reviewsContract } from '../../lib/contracts/reviews.ts';
import { messages } from '../../lib/messages.ts';
import { adminOnly, anyone, signedIn } from '../auth/guards.ts';
import { cachedJson } from '../http/cache.ts';
import { contractRouter } from '../http/contract-router.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { decodeCursor, encodeCursor, seqKeySchema } from '../db/paging.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { newId } from '../db/ids.ts';
import { hasPaidFor } from '../orders/purchases.ts';
import type { ToolsService } from '../tools/tools.service.ts';
import type { Deps } from '../types.ts';
import type { ReviewsService } from './reviews.service.ts';

export function reviewsRoutes(deps: Deps, reviews: ReviewsService, tools: ToolsService) {
  /** The tool named by the :id path parameter; a 404 when there is none. */
  const pathTool = async (toolId: string) => {
    if (!(await tools.get(toolId))) throw notFound('Tool');
    return toolId;
  };

  return contractRouter(deps)
    .on(reviewsContract.list, anyone, async (c, { query: { limit, pageNumber } }) => {
      // One copy per page whatever else the URL carries (public-reads.ts keys its copies by this).
      return cachedJson(c, await reviews.publicPage(limit, pageNumber), {
        key: `/api/reviews?limit=${limit}&pageNumber=${pageNumber}`,
        shows: { kinds: ['reviews'] },
      });
    })
    .on(reviewsContract.ofTool, anyone, async (c, { params, query: { limit, cursor } }) => {
      // A tool's reviews, newest first, `limit` after `cursor`, with their count and average: public.
      const before = cursor === undefined ? undefined : decodeCursor(cursor, seqKeySchema);
      const toolId = await pathTool(params.id);
      const after = before === undefined ? '' : `&cursor=${encodeCursor(before)}`;
      return cachedJson(
        c,
        await reviews.toolPage(toolId, limit, before),
        // A deleted tool's reviews answer 404: the catalogue's changes count too.
        { key: `/api/tools/${toolId}/reviews?limit=${limit}${after}`, shows: { kinds: ['reviews', 'tools'] } },
      );
    })
    .on(reviewsContract.eligibility, signedIn(deps), async (c, { params }) => {
      // Whether the signed-in user may review this tool now (the tool page's review form asks).
      const toolId = await pathTool(params.id);
      const user = c.get('user');
      const [bought, reviewed] = await Promise.all([
        hasPaidFor(deps.db, user, toolId),
        reviews.hasReviewed(toolId, user.email),
      ]);
      return { canReview: bought && !reviewed, reason: reviewed ? 'reviewed' : bought ? null : 'notBuyer' };
    })
    .on(
      reviewsContract.create,
      signedIn(deps),
      rateLimit(deps, { name: 'reviews', points: deps.config.reviewRateLimit, windowMs: 3600_000, by: 'user' }),
      async (c, { body: input }) => {
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
        return { acknowledged: true, insertedId };
      },
    )
    .on(reviewsContract.moderation, adminOnly(deps), async (c, { query: { limit, pageNumber } }) => {
      c.header('Cache-Control', 'no-store');
      return reviews.moderationPage(limit, pageNumber);
    })
    .on(reviewsContract.hide, adminOnly(deps), async (c, { params, body: { hidden } }) => {
      const matchedCount = await reviews.setHidden(params.id, hidden, c.get('user').email);
      if (!matchedCount) throw notFound('Review');
      return { acknowledged: true, matchedCount, modifiedCount: matchedCount };
    }).app;
}
