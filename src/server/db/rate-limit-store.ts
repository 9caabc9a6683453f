// Rate-limit counters in PostgreSQL, so every server sharing the database counts the same hits: a
// limit of 30 a minute is 30 across the cluster, not 30 per server. The table is the one
// rate-limiter-flexible made (same name, columns and key prefix), so a running store keeps its counts.
//
// Hits that arrive together are counted by one statement: a rush of 200 buyers is a few round trips,
// not 200 (which cost more than placing their orders). Each caller still gets its own count, in
// arrival order, exactly as one statement each would have given.
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { RateLimitStore } from '../types.ts';

const TABLE = 'rate_limits';
const KEY_PREFIX = 'rl:';
/** How often rows whose window has passed are deleted (at most; only when hits arrive). */
const SWEEP_EVERY_MS = 5 * 60_000;

/** The row's key: long ones (a rule's name and a 254-character email) hashed to fit the column. */
const storedKey = (key: string) =>
  KEY_PREFIX + (key.length > 200 ? `sha256:${createHash('sha256').update(key).digest('hex')}` : key);

interface Hit {
  key: string;
  windowMs: number;
  done: (result: { count: number; resetAt: number }) => void;
  fail: (error: unknown) => void;
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

export async function postgresRateLimitStore(pool: Pool): Promise<RateLimitStore> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
  );
  let waiting: Hit[] = [];
  let running = false;
  let lastSweep = Date.now();

  /** Counts one window's hits in one statement and answers each caller. */
  async function countWindow(windowMs: number, hits: Hit[]) {
    const now = Date.now();
    const perKey = new Map<string, Hit[]>();
    for (const hit of hits) {
      const callers = perKey.get(hit.key);
      if (callers) callers.push(hit);
      else perKey.set(hit.key, [hit]);
    }
    const keys = [...perKey.keys()].sort();
    try {
      const { rows } = await pool.query<{ key: string; points: number; expire: string }>(COUNT_HITS, [
        keys,
        keys.map((k) => perKey.get(k)!.length),
        now + windowMs,
        now,
      ]);
      for (const row of rows) {
        const callers = perKey.get(row.key)!;
        const first = row.points - callers.length;
        callers.forEach((c, i) => c.done({ count: first + i + 1, resetAt: Number(row.expire) }));
      }
    } catch (error) {
      for (const hit of hits) hit.fail(error);
    }
  }

  async function drain() {
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      const byWindow = new Map<number, Hit[]>();
      for (const hit of batch) {
        const hits = byWindow.get(hit.windowMs);
        if (hits) hits.push(hit);
        else byWindow.set(hit.windowMs, [hit]);
      }
      await Promise.all([...byWindow].map(([windowMs, hits]) => countWindow(windowMs, hits)));
      if (Date.now() - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        await pool.query(`DELETE FROM ${TABLE} WHERE expire <= $1`, [lastSweep]).catch(() => {});
      }
    }
    running = false;
  }

  return {
    hit(key, windowMs) {
      return new Promise((done, fail) => {
        waiting.push({ key: storedKey(key), windowMs, done, fail });
        // On the next turn of the event loop, so the hits of requests that arrived together share it.
        if (!running) {
          running = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
