// Prometheus metrics: requests and latency by route (request-metrics.ts), and through prom-client the
// process, the PostgreSQL pool, public-read cache hits, and orders placed, paid and cancelled. One
// registry per process: main.ts and the services it builds (runtime.ts) load this one module.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { withoutTrailingSlashes } from '../../lib/text.ts';
import { routeTemplate } from '../http/route-templates.ts';
import { requestMetrics } from './request-metrics.ts';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

interface Metrics {
  registry: Registry;
  cache: Counter<'result'>;
  orders: Counter<'event'>;
  webhooks: Counter<'outcome'>;
  pool: Gauge<'state'>;
  poolStats?: () => PoolStats | undefined;
}

function create(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics: Metrics = {
    registry,
    cache: new Counter({
      name: 'public_read_cache_total',
      help: 'Public API reads answered from memory (hit) or by the API (miss)',
      labelNames: ['result'],
      registers: [registry],
      // Counted per request in plain numbers (a labelled inc hashes its labels), added here at each scrape.
      collect() {
        this.inc({ result: 'hit' }, cacheCounts.hit);
        this.inc({ result: 'miss' }, cacheCounts.miss);
        cacheCounts.hit = cacheCounts.miss = 0;
      },
    }),
    orders: new Counter({
      name: 'orders_total',
      help: 'Orders placed, paid and cancelled (by the buyer, an admin or an expired hold)',
      labelNames: ['event'],
      registers: [registry],
    }),
    webhooks: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts: delivered, failed (to be retried), gave_up (out of attempts)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    pool: new Gauge({
      name: 'pg_pool_connections',
      help: 'PostgreSQL pool connections: total open, idle, and callers waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = metrics.poolStats?.();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    }),
  };
  // Present from the start (at 0), so a rate() over them works before the first event.
  for (const event of ['placed', 'paid', 'cancelled']) metrics.orders.inc({ event }, 0);
  for (const result of ['hit', 'miss']) metrics.cache.inc({ result }, 0);
  for (const outcome of ['delivered', 'failed', 'gave_up']) metrics.webhooks.inc({ outcome }, 0);
  return metrics;
}

const cacheCounts = { hit: 0, miss: 0 };
const m = create();

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route label of a request path: an API route with its ids as placeholders, or one of a few
 * groups for everything else (never the raw URL, whose ids and typos would grow labels without bound).
 */
export function routeLabel(url: string): string {
  // Linear whatever the path: /\/+$/ retried at every slash of a long run (issue 23: 16,000 slashes took 2 s).
  const query = url.indexOf('?');
  const path = withoutTrailingSlashes(query < 0 ? url : url.slice(0, query)) || '/';
  if (path === '/api' || path.startsWith('/api/')) {
    return routeTemplate(path) ?? '/api/other';
  }
  if (path === '/metrics') return '/metrics';
  if (path.startsWith('/_astro/')) return '/_astro/*';
  if (/^\/tools\/[^/]+$/.test(path)) return '/tools/:id';
  if (/^\/blogs\/[^/]+$/.test(path)) return '/blogs/:slug';
  if (/\.[a-z0-9]+$/i.test(path)) return 'static file';
  return 'page';
}

// This runs per request: a URL's route label is found once. Route labels are a small fixed set; the
// URLs seen are not, so only short ones are remembered, and that map is cleared past 1,000 (256 kB at most).
const routeOfUrl = new Map<string, string>();
const requests = requestMetrics(
  {
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route (a fixed set of labels) and status',
  },
  {
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of the response, by method and route',
  },
);

/** routeLabel of a URL, remembered: it runs per request (metrics, and the span of a traced one). */
export function cachedRouteLabel(url: string): string {
  let route = routeOfUrl.get(url);
  if (route === undefined) {
    route = routeLabel(url);
    if (url.length <= 256) {
      if (routeOfUrl.size >= 1000) routeOfUrl.clear();
      routeOfUrl.set(url, route);
    }
  }
  return route;
}

/** Counts one answered request; call it when the response has finished. */
export function observeRequest(method: string | undefined, url: string, status: number, seconds: number): void {
  const verb = METHODS.has(method ?? '') ? method! : 'OTHER';
  requests.observe(verb, cachedRouteLabel(url), status, seconds);
}

/** Lets main.ts report the PostgreSQL pool; the getter is read at each scrape. */
export function registerPoolStats(getter: () => PoolStats | undefined): void {
  m.poolStats = getter;
}

/** For the services: one call per event (n orders at once, e.g. holds expired together). */
export const metrics = {
  cacheHit: () => cacheCounts.hit++,
  cacheMiss: () => cacheCounts.miss++,
  orderPlaced: (n = 1) => m.orders.inc({ event: 'placed' }, n),
  orderPaid: (n = 1) => m.orders.inc({ event: 'paid' }, n),
  orderCancelled: (n = 1) => m.orders.inc({ event: 'cancelled' }, n),
  webhookAttempt: (outcome: 'delivered' | 'failed' | 'gave_up') => m.webhooks.inc({ outcome }),
};

export const METRICS_CONTENT_TYPE = m.registry.contentType;

/** The Prometheus text exposition of every metric. */
export async function metricsText(): Promise<string> {
  return (await m.registry.metrics()) + '\n' + requests.text();
}

/** Whether a request carries `Authorization: Bearer <token>`; always false without a token configured. */
export function metricsAuthorized(req: Pick<IncomingMessage, 'headers'>, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  // Hashes first: equal lengths for timingSafeEqual, and the time says nothing about the token's length.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}
