// Rate-limit counters in PostgreSQL, so every server sharing the database counts the same hits: a
// limit of 30 a minute is 30 across the cluster, not 30 per server. The table is the one
// rate-limiter-flexible made (same name, columns and key prefix), so a running store keeps its counts.
//
// Hits that arrive together (batched.ts) are counted by one statement: a rush of 200 buyers is a few
// round trips, not 200 (which cost more than placing their orders). Each caller still gets its own
// count, in arrival order, exactly as one statement each would have given.
import { createHash } from 'node:crypto';
import { batched } from './batched.ts';
import type { Db } from './client.ts';
import type { RateLimitStore } from '../ports.ts';

const TABLE = 'rate_limits';
const KEY_PREFIX = 'rl:';
/** How often rows whose window has passed are deleted (at most; only when hits arrive). */
const SWEEP_EVERY_MS = 5 * 60_000;

/** The row's key; one longer than the column holds (none today: emails are at most 120 characters) is hashed. */
const storedKey = (key: string) =>
  KEY_PREFIX + (key.length > 200 ? `sha256:${createHash('sha256').update(key).digest('hex')}` : key);

interface Hit {
  key: string;
  windowMs: number;
}
interface Count {
  count: number;
  resetAt: number;
}

// Keys in a fixed order, so two servers' batches lock shared rows in the same order (no deadlock).
// A key's hits in one batch are added at once (ON CONFLICT cannot touch a row twice per statement).
const COUNT_HITS = `
  INSERT INTO ${TABLE} (key, points, expire)
  SELECT key, n, $3::bigint FROM unnest($1::text[], $2::int[]) AS hits(key, n) ORDER BY key
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN ${TABLE}.expire <= $4::bigint THEN excluded.points ELSE ${TABLE}.points + excluded.points END,
    expire = CASE WHEN ${TABLE}.expire <= $4::bigint THEN excluded.expire ELSE ${TABLE}.expire END
  RETURNING key, points, expire`;

/** Counters in the rate_limits table (migration 12). */
export function postgresRateLimitStore(db: Pick<Db, 'query'>): RateLimitStore {
  let lastSweep = Date.now();

  /** Counts one window's hits (given by their index in the batch) in one statement, into `counts`. */
  async function countWindow(windowMs: number, hits: Hit[], indexes: number[], counts: Count[]) {
    const now = Date.now();
    const perKey = new Map<string, number[]>();
    for (const i of indexes) {
      const same = perKey.get(hits[i].key);
      if (same) same.push(i);
      else perKey.set(hits[i].key, [i]);
    }
    const keys = [...perKey.keys()].sort();
    // db.query prepares it once per connection (and again if its plan goes stale), not on every order.
    const rows = await db.query<{ key: string; points: number; expire: string }>(COUNT_HITS, [
      keys,
      keys.map((k) => perKey.get(k)!.length),
      now + windowMs,
      now,
    ]);
    for (const row of rows) {
      const same = perKey.get(row.key)!;
      const first = row.points - same.length;
      same.forEach((i, n) => (counts[i] = { count: first + n + 1, resetAt: Number(row.expire) }));
    }
  }

  const hit = batched(async (hits: Hit[]) => {
    const byWindow = new Map<number, number[]>();
    hits.forEach((h, i) => {
      const same = byWindow.get(h.windowMs);
      if (same) same.push(i);
      else byWindow.set(h.windowMs, [i]);
    });
    const counts: Count[] = new Array(hits.length);
    await Promise.all([...byWindow].map(([windowMs, indexes]) => countWindow(windowMs, hits, indexes, counts)));
    if (Date.now() - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = Date.now();
      await db.query(`DELETE FROM ${TABLE} WHERE expire <= $1`, [lastSweep]).catch(() => {});
    }
    return counts;
  });

  return { hit: (key, windowMs) => hit({ key: storedKey(key), windowMs }) };
}
