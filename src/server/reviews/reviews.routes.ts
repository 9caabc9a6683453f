import { Hono } from 'hono';
import { reviewInputSchema, reviewsQuerySchema } from '../../lib/schemas';
import { signedIn } from '../auth/guards';
import { cachedJson } from '../http/cache';
import { jsonBody, parse } from '../http/validate';
import { newId } from '../ids';
import type { AppEnv, Deps } from '../types';
import type { Db } from '../db/client';
import { DEFAULT_REVIEW_PAGE_SIZE } from '../../lib/constants';

interface ReviewRow {
  _id: string;
  name: string;
  Messege: string;
  ratings: number;
  addedBy: string;
}

const PAGE_SQL = `SELECT id AS "_id", name, message AS "Messege", ratings, added_by AS "addedBy"
  FROM reviews ORDER BY seq DESC LIMIT $1 OFFSET $2`;

/** The home page's first page of reviews, for the prebuilt HTML. */
export async function firstReviewsPage(db: Db) {
  const services = await db.query<ReviewRow>(PAGE_SQL, [DEFAULT_REVIEW_PAGE_SIZE, 0]);
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reviews');
  return { services, count: n };
}

export function reviewsRoutes(deps: Deps) {
  const { db } = deps;
  // count(*) over many rows is slow; keep it in memory, refreshed on our writes and every few seconds.
  let count: { value: number; at: number } | undefined;
  const total = async () => {
    if (!count || Date.now() - count.at > 5000) {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reviews');
      count = { value: row.n, at: Date.now() };
    }
    return count.value;
  };

  return new Hono<AppEnv>()
    .get('/reviews', async (c) => {
      const { limit, pageNumber } = parse(reviewsQuerySchema, c.req.query());
      // Newest first over the unique index on seq.
      const services = await db.query<ReviewRow>(PAGE_SQL, [limit, pageNumber * limit]);
      return cachedJson(c, { services, count: await total() });
    })
    .post('/review', signedIn(deps), async (c) => {
      const input = await jsonBody(c, reviewInputSchema);
      const insertedId = newId();
      // addedBy is the signed-in user, whatever the body says.
      await db.query('INSERT INTO reviews (id, name, message, ratings, added_by) VALUES ($1, $2, $3, $4, $5)', [
        insertedId,
        input.name,
        input.Messege,
        input.ratings,
        c.get('user').email,
      ]);
      count = undefined;
      return c.json({ acknowledged: true, insertedId }, 201);
    });
}
