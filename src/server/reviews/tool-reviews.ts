// Reviews of one tool, as its page shows them: a page of the visible ones newest first (keyset on the
// ordinal, so a tool with thousands costs what one with three does), their count and their average.
// Part of the reviews service (reviews.service.ts), which announces every change of reviews.
import type { ToolReview, ToolReviewsPage } from '../../lib/entities.ts';
import { TOOL_PAGE_REVIEWS } from '../../lib/limits.ts';
import { ttlCache } from '../caching/cache.ts';
import type { ChangeBus } from '../caching/changes.ts';
import type { Db } from '../db/client.ts';
import { encodeCursor } from '../db/paging.ts';

/** A tool review as read (public columns: never the author's email). */
interface ToolReviewRow {
  id: string;
  name: string;
  message: string;
  ratings: number;
  verified: boolean;
  created_at: Date | string;
  ordinal: number;
}

/** The spec's names (`Messege`) are the JSON's only: mapped here, not in the SQL. */
const toolReviewJson = (r: ToolReviewRow): ToolReview => ({
  _id: r.id,
  name: r.name,
  Messege: r.message,
  ratings: r.ratings,
  verified: r.verified,
  createdAt: new Date(r.created_at).toISOString(),
});

// Kept pages hold at most this many reviews in all, whatever limits and cursors callers choose.
const MAX_CACHED_REVIEWS = 20_000;
// Another server's write shows here within this long if its announcement is missed.
const MAX_AGE_MS = 5000;

export function toolReviews(db: Db, changes: ChangeBus) {
  const pages = ttlCache<ToolReviewsPage>({
    ttlMs: MAX_AGE_MS,
    maxEntries: 5000,
    maxWeight: MAX_CACHED_REVIEWS,
    weigh: (p) => p.services.length,
  });
  const summaries = ttlCache<{ count: number; average: number | null }>({ ttlMs: MAX_AGE_MS, maxEntries: 10_000 });
  changes.subscribe((change) => {
    if (change !== 'reviews') return;
    pages.drop();
    summaries.drop();
  });

  const summary = (toolId: string) =>
    summaries.get(toolId, async () => {
      const [row] = await db.query<{ count: number; average: number | null }>(
        `SELECT count(*)::int AS count, round(avg(ratings)::numeric, 2)::float8 AS average
         FROM reviews WHERE tool_id = $1 AND NOT hidden`,
        [toolId],
      );
      return { count: row.count, average: row.count ? row.average : null };
    });

  /** The `limit` visible reviews of a tool below ordinal `before` (newest first), with its count and average. */
  async function readPage(toolId: string, limit: number, before: number | undefined): Promise<ToolReviewsPage> {
    const [rows, totals] = await Promise.all([
      db.query<ToolReviewRow>(
        `SELECT id, name, message, ratings, verified, created_at, ordinal FROM reviews
         WHERE tool_id = $1 AND NOT hidden AND ordinal < $2 ORDER BY ordinal DESC LIMIT $3`,
        [toolId, before ?? 2_147_483_647, limit + 1],
      ),
      summary(toolId),
    ]);
    const page = rows.slice(0, limit);
    return {
      services: page.map(toolReviewJson),
      ...totals,
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1].ordinal) : null,
    };
  }

  /**
   * A page of a tool's visible reviews, newest first: the first, or the one below `before` (the ordinal
   * a cursor carries). Kept until a review is added, hidden or shown.
   */
  const toolPage = (toolId: string, limit: number, before?: number) =>
    pages.get(`${toolId}:${limit}:${before ?? ''}`, () => readPage(toolId, limit, before));

  return {
    toolPage,

    /** The newest reviews a tool's own page shows, with their count and average. */
    toolPreview: (toolId: string) => toolPage(toolId, TOOL_PAGE_REVIEWS),

    /** Whether this author has reviewed this tool (hidden reviews count: one per author per tool). */
    async hasReviewed(toolId: string, addedBy: string): Promise<boolean> {
      // The index's own condition spelled out, so one probe of the unique index answers.
      const rows = await db.query(
        `SELECT 1 FROM reviews WHERE tool_id = $1 AND added_by = $2 AND position('@' in added_by) > 0 LIMIT 1`,
        [toolId, addedBy],
      );
      return rows.length > 0;
    },
  };
}
