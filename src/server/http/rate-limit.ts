// A fixed-window limiter per client address, in memory (per process). Enough to blunt brute force
// and spam on the few public write endpoints; put a shared limiter in front when running many processes.
import { createMiddleware } from 'hono/factory';
import { ApiError } from './errors';
import type { AppEnv } from '../types';

export function rateLimit(name: string, limit: number, windowMs: number) {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return createMiddleware<AppEnv>(async (c, next) => {
    const now = Date.now();
    const key = c.env?.clientAddress ?? 'unknown';
    let entry = hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (hits.size > 10_000) hits.clear();
      entry = { count: 0, resetAt: now + windowMs };
      hits.set(key, entry);
    }
    entry.count++;
    if (entry.count > limit) {
      c.header('Retry-After', String(Math.ceil((entry.resetAt - now) / 1000)));
      throw new ApiError(429, 'rate_limited', `Too many requests to ${name}. Please wait a moment and try again.`);
    }
    await next();
  });
}
