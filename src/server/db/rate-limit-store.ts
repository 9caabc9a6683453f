// Rate-limit counters in PostgreSQL (rate-limiter-flexible's table), so every server sharing the
// database counts the same hits: a limit of 30 a minute is 30 across the cluster, not 30 per server.
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Pool } from 'pg';
import type { RateLimitStore } from '../types.ts';

const TABLE = 'rate_limits';
// The store only counts; the rule decides when a count is too many (see http/rate-limit.ts).
const NEVER_REFUSE = 2 ** 30;

export async function postgresRateLimitStore(pool: Pool): Promise<RateLimitStore> {
  const limiters = new Map<number, Promise<RateLimiterPostgres>>();
  const limiterFor = (windowMs: number) => {
    let limiter = limiters.get(windowMs);
    if (!limiter) {
      limiter = new Promise<RateLimiterPostgres>((resolve, reject) => {
        const made: RateLimiterPostgres = new RateLimiterPostgres(
          {
            storeClient: pool,
            tableName: TABLE,
            keyPrefix: 'rl',
            points: NEVER_REFUSE,
            duration: Math.ceil(windowMs / 1000),
          },
          (error?: Error) => (error ? reject(error) : resolve(made)),
        );
      });
      limiter.catch(() => limiters.delete(windowMs));
      limiters.set(windowMs, limiter);
    }
    return limiter;
  };
  return {
    async hit(key, windowMs) {
      const result = await (await limiterFor(windowMs)).consume(key, 1);
      return { count: result.consumedPoints, resetAt: Date.now() + result.msBeforeNext };
    },
  };
}
