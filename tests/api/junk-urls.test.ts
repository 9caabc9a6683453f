// No cache grows with keys an attacker chooses: 10,000 distinct junk URLs (query parameters the API
// does not read, the same page with its parameters reordered, paths of no file, one file under many
// spellings) through the outer server's pieces as main.ts wires them: the public-read copies, the
// static site and the API. The caches' own sizes stay put, and so does the process's memory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicReads, type PublicReads } from '../../src/server/host/public-reads';
import { staticSite, type StaticSite } from '../../src/server/host/static-files';
import { createTestRuntime, type TestRuntime } from './harness';

let runtime: TestRuntime;
let server: Server;
let base = '';
let reads: PublicReads;
let site: StaticSite;
let dist = '';
let toolId = '';

beforeAll(async () => {
  runtime = await createTestRuntime();
  dist = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-junk-'));
  mkdirSync(path.join(dist, '_astro'));
  mkdirSync(path.join(dist, 'tools', 'a'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>Home</title>${'<p>x</p>'.repeat(500)}`);
  writeFileSync(path.join(dist, '_astro', 'app.js'), 'console.log(1);'.repeat(200));
  writeFileSync(path.join(dist, 'tools', 'a', 'index.html'), '<!doctype html><title>Tool</title>');
  reads = publicReads({ changes: runtime.deps.changes });
  site = staticSite(dist, path.join(dist, '_headers.json'), "default-src 'self'");
  const api = getRequestListener((request, env) => {
    const { incoming } = env as HttpBindings;
    return runtime.app.fetch(request, { clientAddress: '127.0.0.1', keep: reads.keeper(incoming.url!) });
  });
  server = createServer((req, res) => {
    if (req.url!.startsWith('/api/')) {
      if (reads.serve(req, res, [])) return;
      return api(req, res);
    }
    const pathname = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    if (site.serve(req, res, pathname, [])) return;
    res.writeHead(404).end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  toolId = (await runtime.firstTool())._id;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await runtime.close();
  rmSync(dist, { recursive: true, force: true });
});

const pad = 'j'.repeat(150);
const JUNK: ((i: number) => string)[] = [
  (i) => `/api/tools?x=${i}${pad}`,
  (i) => `/api/tools/${toolId}?junk=${i}`,
  (i) => `/api/reviews?limit=5&pageNumber=0&x=${i}${pad}`,
  (i) => `/api/reviews?pageNumber=0&limit=5&n=${i}`,
  (i) => `/api/reviews?limit=05&pageNumber=${'0'.repeat(1 + (i % 20))}&q=${i}`,
  (i) => `/no-such-page-${i}-${pad}`,
  (i) => `/tools/${i}-${pad}/`,
  (i) => `${'/'.repeat(1 + (i % 40))}index.html?v=${i}`,
  (i) => `/${'./'.repeat(i % 30)}_astro//app.js`,
  (i) => `/tools/a${'/'.repeat(1 + (i % 30))}`,
];

/** Fires n junk URLs (numbered from `from`), a few at a time over keep-alive connections. */
async function fire(from: number, n: number) {
  let next = from;
  const worker = async () => {
    while (next < from + n) {
      const i = next++;
      const res = await fetch(base + JUNK[i % JUNK.length](i));
      await res.arrayBuffer();
      expect(res.status).toBeLessThan(500);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

// What the process's code holds: V8's heap and the memory outside it that objects own (buffers, the
// database's WebAssembly memory), where any cache keyed by URL lives. Not RSS: on Node 26 it moves by
// -66 to +37 MB between identical runs while these two stay within a few MB (memory no JavaScript object
// holds: the allocator's arenas, compiled code).
const heldMiB = () => {
  const { heapUsed, external } = process.memoryUsage();
  return (heapUsed + external) / 1024 / 1024;
};
// A full collection before each reading, so what is compared is what is still referenced.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('10,000 distinct junk URLs', () => {
  it('leave the public-read copies and the static-file cache at a handful of entries, and the memory held within 20 MB', async () => {
    // Warm-up: memory settles only after ~20,000 requests of any kind (JIT, allocator, sockets), even
    // with no cache at all; then the caches hold their legitimate entries.
    await fire(0, 20_000);
    gc();
    const before = heldMiB();
    const copiesBefore = reads.size();
    await fire(1_000_000, 10_000);
    gc();
    const grown = heldMiB() - before;

    // One copy per canonical URL: the catalogue, the tool and review page 0.
    expect(reads.size().copies).toBeLessThanOrEqual(3);
    expect(reads.size().copies).toBe(copiesBefore.copies);
    // Files are few; misses are kept in a small bounded list.
    const cache = site.cacheSize();
    expect(cache.files).toBeLessThanOrEqual(3);
    expect(cache.misses).toBeLessThanOrEqual(1000);
    expect(cache.spellings).toBeLessThanOrEqual(10_000);
    expect(grown, `the memory held grew ${grown.toFixed(1)} MiB`).toBeLessThan(20);
  }, 300_000);
});
