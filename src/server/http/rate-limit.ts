// Rate limits: a fixed number of hits per window, per client address or per signed-in user. The
// counters live in a RateLimitStore: in memory with PGlite (one process), in PostgreSQL when several
// servers share it (db/rate-limit-store.ts), so a limit holds across servers.
import { createMiddleware } from 'hono/factory';
import { ApiError } from './errors.ts';
import type { AppEnv } from '../types.ts';
import type { RateLimitStore } from '../ports.ts';
import type { Config } from '../config.ts';

export interface RateLimitRule {
  /** Shown in the refusal ("Too many requests to <name>") and part of the counter's key. */
  name: string;
  points: number;
  windowMs: number;
  /** Count per client address (anonymous calls) or per signed-in user (after a sign-in guard). */
  by: 'ip' | 'user';
}

export function memoryRateLimitStore(maxKeys = 100_000): RateLimitStore {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      let entry = hits.get(key);
      if (!entry || entry.resetAt <= now) {
        if (hits.size >= maxKeys) {
          for (const [k, e] of hits) if (e.resetAt <= now) hits.delete(k);
          if (hits.size >= maxKeys) hits.clear();
        }
        entry = { count: 0, resetAt: now + windowMs };
        hits.set(key, entry);
      }
      entry.count++;
      return { count: entry.count, resetAt: entry.resetAt };
    },
  };
}

/** The middleware carries its rule, so the OpenAPI document can say the limit (http/contract-router.ts). */
export function rateLimit(deps: { rateLimits: RateLimitStore }, rule: RateLimitRule) {
  const limit = createMiddleware<AppEnv>(async (c, next) => {
    const who = rule.by === 'user' ? c.get('user')?.email : c.env?.clientAddress;
    const key = `${rule.name}:${rule.by}:${who ?? 'unknown'}`;
    const { count, resetAt } = await deps.rateLimits.hit(key, rule.windowMs);
    if (count > rule.points) {
      c.header('Retry-After', String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))));
      throw new ApiError(429, 'rate_limited', `Too many requests to ${rule.name}. Please wait a moment and try again.`);
    }
    await next();
  });
  return Object.assign(limit, { rateLimit: rule });
}

/**
 * Placing orders, asking quotes and accepting them: one count a buyer (BOOKING_RATE_LIMIT a minute), so one
 * account cannot flood the stock whichever way it orders.
 */
export const ordersRateLimit = (deps: { rateLimits: RateLimitStore; config: Config }) =>
  rateLimit(deps, { name: 'orders', points: deps.config.bookingRateLimit, windowMs: 60_000, by: 'user' });
