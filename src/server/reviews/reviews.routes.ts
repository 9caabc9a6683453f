import { Hono } from 'hono';
import { reviewInputSchema, reviewsQuerySchema } from '../../lib/schemas';
import { signedIn } from '../auth/guards';
import { cachedJson } from '../http/cache';
import { jsonBody, parse } from '../http/validate';
import { newId } from '../ids';
import { publicDataChanged } from '../runtime';
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

interface ReviewsPage {
  services: ReviewRow[];
  count: number;
}

// Newest first, by ordinal (migration 2): page p is an index range however deep, and the count is
// max(ordinal), so neither OFFSET nor count(*) grows with the number of reviews.
const PAGE_SQL = `SELECT id AS "_id", name, message AS "Messege", ratings, added_by AS "addedBy"
  FROM reviews WHERE ordinal <= $1 AND ordinal > $2 ORDER BY ordinal DESC`;

async function readPage(db: Db, limit: number, pageNumber: number): Promise<ReviewsPage> {
  const [{ n }] = await db.query<{ n: number }>('SELECT coalesce(max(ordinal), 0)::int AS n FROM reviews');
  const top = n - pageNumber * limit;
  const services = top > 0 ? await db.query<ReviewRow>(PAGE_SQL, [top, top - limit]) : [];
  return { services, count: n };
}

/** The home page's first page of reviews, for the prebuilt HTML. */
export function firstReviewsPage(db: Db) {
  return readPage(db, DEFAULT_REVIEW_PAGE_SIZE, 0);
}

export function reviewsRoutes(deps: Deps) {
  const { db } = deps;
  // Pages are cached like the catalogue: dropped on our writes, at most 5 s old for writes made by other
  // processes sharing one PostgreSQL. A cached page is the same object, so cachedJson serialises it once.
  const pages = new Map<string, { value: ReviewsPage; at: number }>();
  let generation = 0; // a page read while a review was added is answered but not kept
  const page = async (limit: number, pageNumber: number) => {
    const key = `${limit}:${pageNumber}`;
    const hit = pages.get(key);
    if (hit && Date.now() - hit.at <= 5000) return hit.value;
    const started = generation;
    const value = await readPage(db, limit, pageNumber);
    if (started === generation) {
      if (pages.size >= 1000) pages.clear();
      pages.set(key, { value, at: Date.now() });
    }
    return value;
  };

  return new Hono<AppEnv>()
    .get('/reviews', async (c) => {
      const { limit, pageNumber } = parse(reviewsQuerySchema, c.req.query());
      return cachedJson(c, await page(limit, pageNumber));
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
      pages.clear();
      generation++;
      publicDataChanged();
      return c.json({ acknowledged: true, insertedId }, 201);
    });
}
