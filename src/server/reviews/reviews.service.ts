// Reading and moderating reviews. Reviews are never deleted (the dense ordinal of migration 2 makes
// any page an index range); an admin hides one instead, and the public list skips hidden ones.
import type { Db } from '../db/client.ts';
import { topOrdinalForRank } from './visible-ordinals.ts';

/** A review as anyone may see it: no reviewer email (it would be public on the home page). */
export interface PublicReviewRow {
  _id: string;
  name: string;
  Messege: string;
  ratings: number;
}

export interface ModeratedReviewRow extends PublicReviewRow {
  addedBy: string;
  hidden: boolean;
}

export interface Page<Row> {
  services: Row[];
  count: number;
}

const PUBLIC_COLUMNS = `id AS "_id", name, message AS "Messege", ratings`;

// Other servers sharing one PostgreSQL may hide a review: their change shows here within this long,
// like the review pages the routes keep.
const HIDDEN_MAX_AGE_MS = 5000;

export function reviewsService(db: Db) {
  let hidden: { ordinals: number[]; at: number } | undefined;
  let changes = 0; // a list read while a review was hidden or shown is used once, not kept

  async function hiddenOrdinals(): Promise<number[]> {
    if (hidden && Date.now() - hidden.at <= HIDDEN_MAX_AGE_MS) return hidden.ordinals;
    const started = changes;
    const at = Date.now();
    const rows = await db.query<{ ordinal: number }>('SELECT ordinal FROM reviews WHERE hidden ORDER BY ordinal');
    const ordinals = rows.map((r) => r.ordinal);
    if (started === changes) hidden = { ordinals, at };
    return ordinals;
  }

  const newest = async () =>
    (await db.query<{ n: number }>('SELECT coalesce(max(ordinal), 0)::int AS n FROM reviews'))[0].n;

  return {
    /** Page p of the visible reviews, newest first: ceil(count / limit) pages, as in the spec. */
    async publicPage(limit: number, pageNumber: number): Promise<Page<PublicReviewRow>> {
      const [n, skipped] = await Promise.all([newest(), hiddenOrdinals()]);
      // A review hidden after max(ordinal) was read is newer than n: it cannot shift this page.
      const hiddenUpToN = skipped.length && skipped[skipped.length - 1] > n ? skipped.filter((o) => o <= n) : skipped;
      const top = topOrdinalForRank(n, hiddenUpToN, pageNumber * limit);
      const services =
        top > 0
          ? await db.query<PublicReviewRow>(
              `SELECT ${PUBLIC_COLUMNS} FROM reviews WHERE ordinal <= $1 AND NOT hidden ORDER BY ordinal DESC LIMIT $2`,
              [top, limit],
            )
          : [];
      return { services, count: n - hiddenUpToN.length };
    },

    /** Every review, hidden or not, with who wrote it: the admins' moderation list. */
    async moderationPage(limit: number, pageNumber: number): Promise<Page<ModeratedReviewRow>> {
      const n = await newest();
      const top = n - pageNumber * limit;
      const services =
        top > 0
          ? await db.query<ModeratedReviewRow>(
              `SELECT ${PUBLIC_COLUMNS}, added_by AS "addedBy", hidden FROM reviews
             WHERE ordinal <= $1 AND ordinal > $2 ORDER BY ordinal DESC`,
              [top, top - limit],
            )
          : [];
      return { services, count: n };
    },

    async add(input: { name: string; Messege: string; ratings: number }, addedBy: string, id: string): Promise<void> {
      await db.query('INSERT INTO reviews (id, name, message, ratings, added_by) VALUES ($1, $2, $3, $4, $5)', [
        id,
        input.name,
        input.Messege,
        input.ratings,
        addedBy,
      ]);
    },

    /** Forgets the hidden list: a review was hidden or shown, maybe by another server. */
    dropHidden(): void {
      hidden = undefined;
      changes++;
    },

    /** Hides or shows a review; returns how many matched (0: no such review). */
    async setHidden(id: string, value: boolean): Promise<number> {
      const rows = await db.query<{ id: string }>('UPDATE reviews SET hidden = $2 WHERE id = $1 RETURNING id', [
        id,
        value,
      ]);
      hidden = undefined;
      changes++;
      return rows.length;
    },
  };
}
export type ReviewsService = ReturnType<typeof reviewsService>;
