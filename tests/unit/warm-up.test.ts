// The pages warmed before the store says ready (src/server/host/warm-up.ts): each asked once, in order,
// from the server's own address; one that fails or hangs is skipped, so a start is never held up by it.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { warmPages } from '../../src/server/host/warm-up';

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
});
