// The pages warmed before the store says ready (src/server/host/warm-up.ts): each asked once, in order,
// from the server's own address; one that fails or hangs is skipped, so a start is never held up by it.
// The order path: rounds of a rehearsed batch and a rush of bookings on new connections, each request
// marked as the warm-up's own (the access log and metrics leave those out).
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isWarmUp, warmOrdering, warmPages } from '../../src/server/host/warm-up';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listen(handler: Parameters<typeof createServer>[1], host = '127.0.0.1') {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, host, resolve));
  return server;
}

describe('warm-up', () => {
  it('asks for each page once, in order, accepting compressed answers', async () => {
    const asked: string[] = [];
    const s = await listen((req, res) => {
      asked.push(`${req.url} ${req.headers['accept-encoding']}`);
      res.end('<!doctype html>');
    });
    await warmPages(s);
    expect(asked).toEqual(['/ br, gzip', '/tools br, gzip']);
  });

  it('reaches a server listening on every address through loopback', async () => {
    const asked: string[] = [];
    const s = await listen((req, res) => {
      asked.push(req.url!);
      res.end();
    }, '0.0.0.0');
    await warmPages(s, ['/']);
    expect(asked).toEqual(['/']);
  });

  it('skips a page that fails or hangs, and goes on', async () => {
    const asked: string[] = [];
    const s = await listen((req, res) => {
      asked.push(req.url!);
      if (req.url === '/broken') return req.socket.destroy();
      if (req.url === '/hangs') return; // never answers
      res.end();
    });
    const started = performance.now();
    await warmPages(s, ['/broken', '/hangs', '/'], 200);
    expect(asked).toEqual(['/broken', '/hangs', '/']);
    expect(performance.now() - started).toBeLessThan(2000);
    s.closeAllConnections();
  });

  it('warms the order path: per round a rehearsal, then a rush of bookings on new connections, marked as its own', async () => {
    const seen: { method: string; url: string; auth: string; body: string; own: boolean; port: number }[] = [];
    const s = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          auth: req.headers.authorization ?? '',
          body,
          own: isWarmUp(req),
          port: req.socket.remotePort!,
        });
        res.statusCode = 401;
        res.end();
      });
    });
    const steps: string[] = [];
    let failures = 0;
    await warmOrdering(s, {
      rehearse: async (buyers) => {
        steps.push(`rehearse ${buyers} after ${seen.length} requests`);
        if (failures++ === 0) throw new Error('a rehearsal that fails is skipped');
      },
      token: 'made-up',
      rounds: 2,
      buyers: 5,
    });
    expect(steps).toEqual(['rehearse 5 after 0 requests', 'rehearse 5 after 5 requests']);
    expect(seen).toHaveLength(10);
    for (const r of seen) {
      expect(r).toMatchObject({ method: 'POST', url: '/api/booking', auth: 'Bearer made-up', own: true });
      expect(JSON.parse(r.body)).toMatchObject({ quantity: 2 });
    }
    // Each on a connection of its own, as a rush's buyers arrive.
    expect(new Set(seen.map((r) => r.port)).size).toBe(10);
  });

  it('does not take a request that only claims to be the warm-up for its own', () => {
    const req = (headers: Record<string, string>) => ({ headers }) as unknown as Parameters<typeof isWarmUp>[0];
    expect(isWarmUp(req({}))).toBe(false);
    expect(isWarmUp(req({ 'x-warm-up': 'warm-up' }))).toBe(false);
    expect(isWarmUp(req({ 'x-warm-up': '' }))).toBe(false);
  });

  it('starts no round once its time is spent, so a slow database cannot hold a start up', async () => {
    const s = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.end());
    });
    let rehearsals = 0;
    const started = performance.now();
    await warmOrdering(s, {
      rehearse: async () => {
        rehearsals++;
        await new Promise((r) => setTimeout(r, 300));
      },
      token: 'made-up',
      rounds: 10,
      buyers: 1,
      timeoutMs: 1000,
      budgetMs: 100,
    });
    // The first round took longer than the whole budget: the other nine never started.
    expect(rehearsals).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
