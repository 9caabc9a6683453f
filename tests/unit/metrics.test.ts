// Prometheus metrics (src/server/observability/metrics.ts): bounded route labels, the counters the services call,
// the pool getter, and who may read /metrics (loopback port, or the bearer token in constant time).
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  metrics,
  metricsAuthorized,
  metricsText,
  observeRequest,
  registerPoolStats,
  routeLabel,
} from '../../src/server/observability/metrics';
import { serveMetricsWithToken, startMetricsServer } from '../../src/server/observability/metrics-server';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The value of one sample line, e.g. sample(text, 'orders_total{event="paid"}'). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : NaN;
}

describe('route labels', () => {
  it('replace ids and emails with placeholders', () => {
    expect(routeLabel('/api/tools/65f0c0ffee?x=1')).toBe('/api/tools/:id');
    expect(routeLabel('/api/tools')).toBe('/api/tools');
    expect(routeLabel('/api/tools/65f0c0ffee/reviews?limit=5&cursor=Mw')).toBe('/api/tools/:id/reviews');
    expect(routeLabel('/api/tools/65f0c0ffee/reviews/eligibility')).toBe('/api/tools/:id/reviews/eligibility');
    expect(routeLabel('/api/user/a@b.test')).toBe('/api/user/:email');
    expect(routeLabel('/api/booking/makepayment/abc')).toBe('/api/booking/makepayment/:id');
    expect(routeLabel('/api/booking/email/a@b.test')).toBe('/api/booking/email/:email');
    expect(routeLabel('/api/booking/xyz')).toBe('/api/booking/:id');
    expect(routeLabel('/api/images/abc.webp')).toBe('/api/images/:name');
    expect(routeLabel('/api/export/orders.csv?from=2024-01-01')).toBe('/api/export/orders.csv');
    expect(routeLabel('/api/import/tools?apply=1')).toBe('/api/import/tools');
    expect(routeLabel('/api/contact/65f0c0ffee/read')).toBe('/api/contact/:id/read');
    expect(routeLabel('/api/audit?type=tool.restocked')).toBe('/api/audit');
    expect(routeLabel('/api/quotes?state=answered')).toBe('/api/quotes');
    expect(routeLabel('/api/quotes/65f0c0ffee')).toBe('/api/quotes/:id');
    expect(routeLabel('/api/quotes/65f0c0ffee/accept')).toBe('/api/quotes/:id/accept');
    expect(routeLabel('/api/tools/65f0c0ffee/ledger')).toBe('/api/tools/:id/ledger');
    expect(routeLabel('/api/tools/65f0c0ffee/edit')).toBe('/api/tools/:id/edit');
    expect(routeLabel('/api/discounts/65f0c0ffee')).toBe('/api/discounts/:id');
    expect(routeLabel('/api/quote-totals')).toBe('/api/quote-totals');
    // Every route the contracts declare has its label (the after-sale calls too), the most literal first.
    expect(routeLabel('/api/booking/deliver/abc')).toBe('/api/booking/deliver/:id');
    expect(routeLabel('/api/booking/abc/invoice')).toBe('/api/booking/:id/invoice');
    expect(routeLabel('/api/booking/email/invoice')).toBe('/api/booking/email/:email');
    expect(routeLabel('/api/emails/abc/resend')).toBe('/api/emails/:id/resend');
    expect(routeLabel('/api/openapi.json')).toBe('/api/openapi.json');
    expect(routeLabel('/tools/abc/')).toBe('/tools/:id');
    expect(routeLabel('/_astro/client.1234.js')).toBe('/_astro/*');
  });

  it('stay a small fixed set whatever the URLs', () => {
    const labels = new Set<string>();
    for (let i = 0; i < 500; i++) {
      for (const url of [`/api/nope/${i}`, `/x${i}`, `/x${i}.png`, `/api/tools/${i}/extra`, `/blogs/post-${i}`])
        labels.add(routeLabel(url));
    }
    expect([...labels].sort()).toEqual(['/api/other', '/blogs/:slug', 'page', 'static file']);
  });
});

describe('metrics text', () => {
  it('counts requests by method, route and status, with their latency', async () => {
    const before =
      sample(await metricsText(), 'http_requests_total{method="GET",route="/api/tools/:id",status="200"}') || 0;
    observeRequest('GET', '/api/tools/1', 200, 0.004);
    observeRequest('GET', '/api/tools/2', 200, 0.3);
    observeRequest('BREW', '/', 400, 0.001);
    const text = await metricsText();
    expect(sample(text, 'http_requests_total{method="GET",route="/api/tools/:id",status="200"}')).toBe(before + 2);
    expect(sample(text, 'http_requests_total{method="OTHER",route="page",status="400"}')).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/tools/:id"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/api/tools/1"');
  });

  it('counts orders and cache hits through the functions the services call', async () => {
    const read = async () => {
      const text = await metricsText();
      return ['placed', 'paid', 'cancelled']
        .map((e) => sample(text, `orders_total{event="${e}"}`))
        .concat(['hit', 'miss'].map((r) => sample(text, `public_read_cache_total{result="${r}"}`)));
    };
    const before = await read();
    expect(before.every((n) => Number.isFinite(n))).toBe(true); // present at 0 before any event
    metrics.orderPlaced();
    metrics.orderPlaced();
    metrics.orderPaid();
    metrics.orderCancelled(3);
    metrics.cacheHit();
    metrics.cacheMiss();
    const after = await read();
    expect(after.map((n, i) => n - before[i])).toEqual([2, 1, 3, 1, 1]);
  });

  it('reads the pool through the registered getter at each scrape', async () => {
    let stats = { total: 4, idle: 3, waiting: 0 };
    registerPoolStats(() => stats);
    let text = await metricsText();
    expect(sample(text, 'pg_pool_connections{state="total"}')).toBe(4);
    expect(sample(text, 'pg_pool_connections{state="idle"}')).toBe(3);
    stats = { total: 10, idle: 0, waiting: 7 };
    text = await metricsText();
    expect(sample(text, 'pg_pool_connections{state="waiting"}')).toBe(7);
  });

  it('includes the process metrics (CPU, memory, event loop)', async () => {
    const text = await metricsText();
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('who may read /metrics', () => {
  const token = 'a-metrics-token-of-32-characters';
  const withAuth = (authorization?: string) => ({ headers: authorization ? { authorization } : {} });

  it('needs the exact bearer token, and nobody gets in without one configured', () => {
    expect(metricsAuthorized(withAuth(`Bearer ${token}`), token)).toBe(true);
    expect(metricsAuthorized(withAuth(`bearer ${token}`), token)).toBe(true);
    expect(metricsAuthorized(withAuth(`Bearer ${token}x`), token)).toBe(false);
    expect(metricsAuthorized(withAuth(`Bearer ${token.slice(1)}`), token)).toBe(false);
    expect(metricsAuthorized(withAuth(token), token)).toBe(false);
    expect(metricsAuthorized(withAuth(), token)).toBe(false);
    expect(metricsAuthorized(withAuth('Bearer '), '')).toBe(false);
    expect(metricsAuthorized(withAuth('Bearer anything'), undefined)).toBe(false);
  });

  it('on the public port: the metrics with the token, otherwise left to the ordinary 404', async () => {
    const server = createServer((req, res) => {
      if (serveMetricsWithToken(req, res, token)) return;
      res.writeHead(404).end('page not found');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    const open = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await open.text()).toContain('# TYPE http_requests_total counter');
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong' }] as Record<string, string>[]) {
      const closed = await fetch(url, { headers });
      expect(closed.status).toBe(404);
      expect(await closed.text()).toBe('page not found');
    }
  });

  it('on its own port: bound to loopback only, answering /metrics and 404 elsewhere', async () => {
    const server = await startMetricsServer(0);
    servers.push(server);
    const { address, port } = server.address() as AddressInfo;
    expect(address).toBe('127.0.0.1');
    const ok = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('orders_total');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
  });
});
