// Reading and moderating reviews. Reviews are never deleted (the dense ordinal of migration 2 makes
// any page an index range); an admin hides one instead, and the public list skips hidden ones.
import type { AuthoredReview, ModeratedReview, ModerationPage, Review, ReviewsPage } from '../../lib/entities.ts';
import type { ReviewInput } from '../../lib/schemas.ts';
import { ttlCache } from '../caching/cache.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { ChangeBus } from '../caching/changes.ts';
import { emit } from '../events/events.service.ts';
import { toolReviews } from './tool-reviews.ts';
import { topOrdinalForRank } from './visible-ordinals.ts';
import {
  forgetAuthorOf,
  insertReview,
  lockReview,
  selectByAuthor,
  selectHiddenOrdinals,
  selectModerated,
  selectTopOrdinal,
  selectVisibleBelow,
  updateHidden,
  type AuthoredReviewRow,
  type ModeratedReviewRow,
  type ReviewRow,
} from './reviews.sql.ts';

/** The spec's names (`Messege`, `services`) are the JSON's only: they are mapped here, not in the SQL. */
const reviewJson = (r: ReviewRow): Review => ({ _id: r.id, name: r.name, Messege: r.message, ratings: r.ratings });
const authoredReviewJson = (r: AuthoredReviewRow): AuthoredReview => ({
  ...reviewJson(r),
  hidden: r.hidden,
  createdAt: new Date(r.created_at).toISOString(),
});
const moderatedReviewJson = (r: ModeratedReviewRow): ModeratedReview => ({
  ...reviewJson(r),
  addedBy: r.added_by,
  hidden: r.hidden,
});

// Other servers sharing one PostgreSQL may hide a review: their change shows here within this long,
// like the review pages the routes keep.
const HIDDEN_MAX_AGE_MS = 5000;

// Cached pages hold at most this many reviews in all (a page holds up to 100): limit × page is chosen
// by the caller, so the cache is bounded by what it holds, not only by how many pages.
const MAX_CACHED_REVIEWS = 20_000;

/**
 * The reviews: reading the public pages (cached, and dropped on every reviews change announced on the
 * bus by this server or another sharing the database), adding and moderating. Writes announce their
 * change after commit, so every page that shows reviews (the API's, the home page) drops its copy.
 */
export function reviewsService(db: Db, changes: ChangeBus) {
  const hidden = ttlCache<number[]>({ ttlMs: HIDDEN_MAX_AGE_MS });
  // At most 5 s old for writes made by other processes sharing one PostgreSQL, if an announcement is
  // missed. A cached page is the same object, so cachedJson serialises it once.
  const pages = ttlCache<ReviewsPage>({
    ttlMs: 5000,
    maxEntries: 1000,
    maxWeight: MAX_CACHED_REVIEWS,
    weigh: (p) => p.services.length,
  });
  changes.subscribe((change) => {
    if (change !== 'reviews') return;
    hidden.drop();
    pages.drop();
  });
  const hiddenOrdinals = () => hidden.get('hidden', () => selectHiddenOrdinals(db));

  const newest = () => selectTopOrdinal(db);

  /** Page p of the visible reviews, newest first: ceil(count / limit) pages, as in the spec. */
  async function readPublicPage(limit: number, pageNumber: number): Promise<ReviewsPage> {
    const [n, skipped] = await Promise.all([newest(), hiddenOrdinals()]);
    // A review hidden after max(ordinal) was read is newer than n: it cannot shift this page.
    const hiddenUpToN = skipped.length && skipped[skipped.length - 1] > n ? skipped.filter((o) => o <= n) : skipped;
    const top = topOrdinalForRank(n, hiddenUpToN, pageNumber * limit);
    const services = top > 0 ? await selectVisibleBelow(db, top, limit) : [];
    return { services: services.map(reviewJson), count: n - hiddenUpToN.length };
  }

  return {
    ...toolReviews(db, changes),

    /** Page p of the visible reviews (cached until a review is added, hidden or shown). */
    publicPage: (limit: number, pageNumber: number) =>
      pages.get(`${limit}:${pageNumber}`, () => readPublicPage(limit, pageNumber)),

    /** Every review, hidden or not, with who wrote it: the admins' moderation list. */
    async moderationPage(limit: number, pageNumber: number): Promise<ModerationPage> {
      const n = await newest();
      const top = n - pageNumber * limit;
      const services = top > 0 ? await selectModerated(db, top, limit) : [];
      return { services: services.map(moderatedReviewJson), count: n };
    },

    /**
     * Adds a review; with `toolId`, of that tool, `verified` as the caller found. Returns false, writing
     * nothing, when the author has a review of that tool already (migration 13's unique index decides,
     * so two posts at once make one review).
     */
    async add(input: ReviewInput, addedBy: string, id: string, verified = false): Promise<boolean> {
      const added = await insertReview(db, {
        id,
        name: input.name,
        message: input.Messege,
        ratings: input.ratings,
        addedBy,
        toolId: input.toolId ?? null,
        verified: Boolean(input.toolId) && verified,
      });
      if (added) changes.announce('reviews');
      return added !== undefined;
    },

    /** A user's reviews, hidden ones too, oldest first, `size` at a time (reviews_added_by_idx): their data export. */
    async *pagesBy(email: string, size: number): AsyncGenerator<AuthoredReview[]> {
      let after: number | null = null;
      for (;;) {
        const rows: AuthoredReviewRow[] = await selectByAuthor(db, email, size, after);
        if (rows.length) yield rows.map(authoredReviewJson);
        if (rows.length < size) return;
        after = rows[rows.length - 1].seq;
      }
    },

    /**
     * Inside an account deletion's transaction: the user's reviews stay, under the name they gave, but
     * no longer say who wrote them. Returns how many; the caller announces the change after commit.
     */
    async forgetAuthor(tx: Queryable, email: string): Promise<number> {
      return forgetAuthorOf(tx, email);
    },

    /**
     * Hides or shows a review; returns how many matched (0: no such review). A change writes its audit
     * event ('review.hidden' or 'review.shown', by `actor`) in the same transaction; hiding a hidden
     * review changes nothing and records nothing.
     */
    async setHidden(id: string, value: boolean, actor: string): Promise<number> {
      const matched = await db.transaction(async (tx) => {
        const before = await lockReview(tx, id);
        if (!before) return 0;
        if (before.hidden === value) return 1;
        await updateHidden(tx, id, value);
        await emit(tx, {
          type: value ? 'review.hidden' : 'review.shown',
          subject: id,
          actor,
          data: { target: `Review by ${before.name}`, before: { hidden: before.hidden }, after: { hidden: value } },
        });
        return 1;
      });
      if (matched) changes.announce('reviews');
      return matched;
    },
  };
}
export type ReviewsService = ReturnType<typeof reviewsService>;
