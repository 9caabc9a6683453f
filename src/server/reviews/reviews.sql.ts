// The statements of reviews.service.ts over `reviews` (tool-reviews.ts keeps a tool page's own). The
// service owns the rules: what the public sees, the caches, the audit events.
import type { Queryable } from '../db/client.ts';

/** A review row as read (public columns: no reviewer email, it would be public on the home page). */
export interface ReviewRow {
  id: string;
  name: string;
  message: string;
  ratings: number;
}
export interface ModeratedReviewRow extends ReviewRow {
  added_by: string;
  hidden: boolean;
}
export interface AuthoredReviewRow extends ReviewRow {
  hidden: boolean;
  created_at: string | Date;
  seq: number;
}

const PUBLIC_COLUMNS = 'id, name, message, ratings';

/** The ordinals of the hidden reviews, ascending. */
export const selectHiddenOrdinals = async (db: Queryable) =>
  (await db.query<{ ordinal: number }>('SELECT ordinal FROM reviews WHERE hidden ORDER BY ordinal')).map(
    (r) => r.ordinal,
  );

/** The newest review's ordinal: how many reviews there are (ordinals run 1..n without gaps). */
export const selectTopOrdinal = async (db: Queryable) =>
  (await db.query<{ n: number }>('SELECT coalesce(max(ordinal), 0)::int AS n FROM reviews'))[0].n;

/** Up to `limit` visible reviews at or below ordinal `top`, newest first. */
export const selectVisibleBelow = (db: Queryable, top: number, limit: number) =>
  db.query<ReviewRow>(
    `SELECT ${PUBLIC_COLUMNS} FROM reviews WHERE ordinal <= $1 AND NOT hidden ORDER BY ordinal DESC LIMIT $2`,
    [top, limit],
  );

/** Every review, hidden or not, with ordinal in (top − limit, top], newest first. */
export const selectModerated = (db: Queryable, top: number, limit: number) =>
  db.query<ModeratedReviewRow>(
    `SELECT ${PUBLIC_COLUMNS}, added_by, hidden FROM reviews
     WHERE ordinal <= $1 AND ordinal > $2 ORDER BY ordinal DESC`,
    [top, top - limit],
  );

export interface NewReview {
  id: string;
  name: string;
  message: string;
  ratings: number;
  addedBy: string;
  toolId: string | null;
  verified: boolean;
}

/** Undefined, writing nothing, when the author has a review of that tool already (migration 13's unique index). */
export const insertReview = async (db: Queryable, r: NewReview) =>
  (
    await db.query<{ id: string }>(
      `INSERT INTO reviews (id, name, message, ratings, added_by, tool_id, verified)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [r.id, r.name, r.message, r.ratings, r.addedBy, r.toolId, r.verified],
    )
  )[0] as { id: string } | undefined;

/** Up to `size` of the author's reviews, hidden ones too, oldest first, after the one numbered `after` (reviews_added_by_idx). */
export const selectByAuthor = (db: Queryable, email: string, size: number, after: number | null) =>
  db.query<AuthoredReviewRow>(
    `SELECT ${PUBLIC_COLUMNS}, hidden, created_at, seq FROM reviews
     WHERE added_by = $1${after === null ? '' : ' AND seq > $3'} ORDER BY seq LIMIT $2`,
    after === null ? [email, size] : [email, size, after],
  );

/** The author's reviews no longer say who wrote them; how many. */
export const forgetAuthorOf = async (db: Queryable, email: string) =>
  (
    await db.query<{ n: number }>(
      `WITH forgotten AS (UPDATE reviews SET added_by = '' WHERE added_by = $1 RETURNING 1) SELECT count(*)::int AS n FROM forgotten`,
      [email],
    )
  )[0].n;

/** Whether a review is hidden, and its author's name; its row locked until the transaction ends. */
export const lockReview = async (db: Queryable, id: string) =>
  (
    await db.query<{ hidden: boolean; name: string }>('SELECT hidden, name FROM reviews WHERE id = $1 FOR UPDATE', [id])
  )[0] as { hidden: boolean; name: string } | undefined;

export const updateHidden = (db: Queryable, id: string, hidden: boolean) =>
  db.query('UPDATE reviews SET hidden = $2 WHERE id = $1', [id, hidden]);
