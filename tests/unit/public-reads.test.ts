// The outer server's copies of public API reads (src/server/host/public-reads.ts): served from memory
// only while nothing changed, through a real node:http server as main.ts uses them.
import { createServer, type Server } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { publicReads, type PublicReads } from '../../src/server/host/public-reads';
import { memoryBus } from '../../src/server/caching/changes';
import type { PublicAnswer } from '../../src/server/types';
import { requestBytes } from '../http-bytes';

const bus = memoryBus();
const publicDataChanged = () => bus.announce('tools');

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * A server that answers from the copies first, else calls the "API", which counts its calls. Like
 * cachedJson, the API names the canonical URL of its answer: by default the URL asked.
 */
async function start(
  reads: PublicReads,
  answer: () => PublicAnswer,
  keyOf: (url: string) => string | undefined = (url) => url,
) {
  const calls = { api: 0 };
  server = createServer((req, res) => {
    if (reads.serve(req, res, ['X-Request-Id', 'r1'])) return;
    calls.api++;
    const keep = reads.keeper(req.url!);
    const { body, etag } = answer();
    keep({ ...answer(), key: keyOf(req.url!) });
    res.writeHead(200, { ETag: etag, 'Content-Type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return { calls, get: (path: string, init?: RequestInit) => fetch(url + path, init) };
}

const answerOf = (body: string): PublicAnswer => ({
  body,
  etag: `W/"${body.length}"`,
  cacheControl: 'public, max-age=0',
});

describe('public reads answered from memory', () => {
  it('answers a repeated read with the same bytes and headers, without the API', async () => {
    const { calls, get } = await start(publicReads({ changes: bus }), () => answerOf('[{"name":"Claw hammer"}]'));
    expect(await (await get('/api/tools')).text()).toBe('[{"name":"Claw hammer"}]');
    const again = await get('/api/tools');
    expect(calls.api).toBe(1);
    expect(await again.text()).toBe('[{"name":"Claw hammer"}]');
    expect(again.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(again.headers.get('etag')).toBe(answerOf('[{"name":"Claw hammer"}]').etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=0');
    expect(again.headers.get('x-request-id')).toBe('r1');
  });

  it('answers the exact UTF-8 bytes of a text with accents, dashes and emoji, with their length', async () => {
    const text = '[{"name":"Marteau à panne fendue — 16 oz 🔨"}]';
    const { calls, get } = await start(publicReads({ changes: bus }), () => answerOf(text));
    await get('/api/tools');
    const again = await get('/api/tools');
    expect(calls.api).toBe(1);
    const bytes = Buffer.from(await again.arrayBuffer());
    expect(bytes.equals(Buffer.from(text))).toBe(true);
    expect(again.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });

  it('keeps one copy per URL, query included', async () => {
    const { calls, get } = await start(publicReads({ changes: bus }), () => answerOf('{}'));
    await get('/api/reviews?limit=5&pageNumber=0');
    await get('/api/reviews?limit=5&pageNumber=1');
    await get('/api/reviews?limit=5&pageNumber=0');
    expect(calls.api).toBe(2);
  });

  it('keeps one copy per canonical URL: junk query parameters add none', async () => {
    const reads = publicReads({ changes: bus });
    const { calls, get } = await start(
      reads,
      () => answerOf('[{"name":"Claw hammer"}]'),
      (url) => url.split('?')[0],
    );
    for (let i = 0; i < 300; i++) await get(`/api/tools?x=${i}`);
    expect(calls.api).toBe(300);
    expect(reads.size().copies).toBe(1);
    await get('/api/tools');
    expect(calls.api).toBe(300);
  });

  it('keeps no answer that names no canonical URL for a URL with a query', async () => {
    const reads = publicReads({ changes: bus });
    const { calls, get } = await start(
      reads,
      () => answerOf('[]'),
      () => undefined,
    );
    await get('/api/tools?x=1');
    await get('/api/tools?x=1');
    expect(calls.api).toBe(2);
    expect(reads.size()).toEqual({ copies: 0, bytes: 0 });
  });

  it('holds at most its byte budget, dropping the least recently used copies first', async () => {
    const reads = publicReads({ changes: bus, maxBytes: 10_000 });
    const { calls, get } = await start(reads, () => answerOf(`"${'x'.repeat(3000)}"`));
    for (let i = 0; i < 3; i++) await get(`/api/tools/${i}`);
    await get('/api/tools/0'); // used again: now the most recent
    await get('/api/tools/3');
    expect(reads.size().bytes).toBeLessThanOrEqual(10_000);
    expect(reads.size().copies).toBe(3);
    const before = calls.api;
    await get('/api/tools/0');
    await get('/api/tools/3');
    expect(calls.api).toBe(before);
    await get('/api/tools/1');
    expect(calls.api).toBe(before + 1);
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const { get } = await start(publicReads({ changes: bus }), () => answerOf('[1,2,3]'));
    await get('/api/tools');
    const notModified = await get('/api/tools', { headers: { 'if-none-match': 'W/"7"' } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('W/"7"');
    const head = await get('/api/tools', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('7');
    expect(await head.text()).toBe('');
  });

  it('drops every copy when public data changes', async () => {
    let body = '[{"availableQuantity":5}]';
    const { calls, get } = await start(publicReads({ changes: bus }), () => answerOf(body));
    await get('/api/tools');
    body = '[{"availableQuantity":4}]';
    publicDataChanged();
    expect(await (await get('/api/tools')).text()).toBe('[{"availableQuantity":4}]');
    expect(calls.api).toBe(2);
  });

  it('does not keep an answer computed while a write happened', async () => {
    const reads = publicReads({ changes: bus });
    const keep = reads.keeper('/api/tools'); // the read starts
    publicDataChanged(); // a write commits before the read answers
    keep(answerOf('[{"stale":true}]'));
    const { calls, get } = await start(reads, () => answerOf('[{"stale":false}]'));
    expect(await (await get('/api/tools')).text()).toBe('[{"stale":false}]');
    expect(calls.api).toBe(1);
  });

  it('asks the API again once a copy is older than its maximum age', async () => {
    const { calls, get } = await start(publicReads({ changes: bus, maxAgeMs: 50 }), () => answerOf('[]'));
    await get('/api/tools');
    await get('/api/tools');
    expect(calls.api).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await get('/api/tools');
    expect(calls.api).toBe(2);
  });

  it("keeps a tool's copy through another tool's stock change, and drops it for its own or the catalogue's", async () => {
    const reads = publicReads({ changes: bus });
    const shows = (tool: string) => ({ kinds: ['tools', 'stock'] as const, tools: [tool] });
    const { calls, get } = await start(reads, () => answerOf('{}'));
    // The "API" here keeps plain answers; keep scoped ones by hand, as cachedJson would.
    const keepTool = (tool: string) =>
      reads.keeper(`/api/tools/${tool}`)({ ...answerOf(`{"_id":"${tool}"}`), shows: shows(tool) });
    keepTool('a');
    keepTool('b');
    const listKeep = reads.keeper('/api/tools');
    listKeep({ ...answerOf('[]'), shows: { kinds: ['tools', 'stock'] } });
    const reviewsKeep = reads.keeper('/api/reviews');
    reviewsKeep({ ...answerOf('{"services":[]}'), shows: { kinds: ['reviews'] } });

    bus.announce('stock', ['a']);
    expect(await (await get('/api/tools/b')).text()).toBe('{"_id":"b"}');
    expect(await (await get('/api/reviews')).text()).toBe('{"services":[]}');
    expect(calls.api).toBe(0);
    expect(await (await get('/api/tools/a')).text()).toBe('{}'); // asked again
    expect(await (await get('/api/tools')).text()).toBe('{}'); // the list shows a's stock
    expect(calls.api).toBe(2);

    keepTool('a');
    bus.announce('stock'); // a stock change that does not say which tools
    expect(await (await get('/api/tools/b')).text()).toBe('{}');
    expect(await (await get('/api/tools/a')).text()).toBe('{}');
    expect(await (await get('/api/reviews')).text()).toBe('{"services":[]}');
    expect(calls.api).toBe(4);
  });
});

describe('a copy of a body worth compressing', () => {
  const json = JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ _id: `t${i}`, name: `Hammer ${i} — 🔨` })));
  const made = { br: 0, gzip: 0 };
  const answer = (): PublicAnswer => ({
    ...answerOf(json),
    encoded: (encoding) => {
      made[encoding]++;
      return encoding === 'br' ? brotliCompressSync(json) : gzipSync(json);
    },
  });
  /** One GET or HEAD of /api/tools, the body as sent. */
  const raw = (port: number, headers: Record<string, string>, method = 'GET') =>
    requestBytes(port, '/api/tools', headers, method);

  it('serves brotli, gzip or the plain body by Accept-Encoding, each with its length, making each encoding once', async () => {
    const { calls, get } = await start(publicReads({ changes: bus }), answer);
    await get('/api/tools', { headers: { 'accept-encoding': 'identity' } });
    const port = (server!.address() as AddressInfo).port;
    for (let i = 0; i < 2; i++) {
      const br = await raw(port, { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-length']).toBe(String(br.body.length));
      expect(brotliDecompressSync(br.body).toString()).toBe(json);
      const gz = await raw(port, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(json);
      const plain = await raw(port, {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(json);
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(json)));
      for (const res of [br, gz, plain]) expect(res.headers.vary).toBe('Accept-Encoding');
    }
    expect(calls.api).toBe(1);
    expect(made).toEqual({ br: 1, gzip: 1 });
    const head = await raw(port, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBeLessThan(Buffer.byteLength(json));
    expect(head.body.length).toBe(0);
    const notModified = await raw(port, { 'accept-encoding': 'br', 'if-none-match': answerOf(json).etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.vary).toBe('Accept-Encoding');
  });

  it('a body not worth compressing is sent as it is, with no Vary', async () => {
    const { get } = await start(publicReads({ changes: bus }), () => answerOf('[{"name":"Claw hammer"}]'));
    await get('/api/tools');
    const port = (server!.address() as AddressInfo).port;
    const res = await raw(port, { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.toString()).toBe('[{"name":"Claw hammer"}]');
  });
});

describe('reads that miss while the API answers the same URL', () => {
  const catalogue = { kinds: ['tools', 'stock'] as const };

  /** An "API" that takes `ms` to answer, numbering its answers; `fail` makes it answer 500, keeping nothing. */
  async function startSlow(ms: number) {
    const reads = publicReads({ changes: bus });
    const api = { calls: 0, fail: false };
    server = createServer((req, res) => {
      void (async () => {
        if (reads.serve(req, res, []) || (await reads.join(req, res, []))) return;
        const n = ++api.calls;
        const keep = reads.keeper(req.url!);
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (api.fail) {
          keep.abandon();
          res.writeHead(500).end('failed');
          return;
        }
        keep({ ...answerOf(`{"answer":${n}}`), shows: catalogue });
        keep.abandon();
        res.writeHead(200).end(`{"answer":${n}}`);
      })();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    return { api, get: async (path: string) => (await fetch(url + path)).text() };
  }

  it('wait for the answer under way instead of each asking the API again', async () => {
    const { api, get } = await startSlow(50);
    await get('/api/tools');
    bus.announce('stock', ['a']); // an order: the kept copy is stale
    const answers = await Promise.all(Array.from({ length: 10 }, () => get('/api/tools')));
    expect(api.calls).toBe(2);
    expect(new Set(answers)).toEqual(new Set(['{"answer":2}']));
  });

  it('never get an answer that may miss a change made before they arrived', async () => {
    const { api, get } = await startSlow(80);
    await get('/api/tools');
    bus.announce('stock', ['a']);
    const first = get('/api/tools'); // asks the API (answer 2)
    await new Promise((resolve) => setTimeout(resolve, 20));
    bus.announce('stock', ['b']); // commits while answer 2 is computed
    const second = get('/api/tools');
    expect(await first).toBe('{"answer":2}');
    expect(await second).toBe('{"answer":3}');
    expect(await get('/api/tools')).toBe('{"answer":3}');
    expect(api.calls).toBe(3);
  });

  it('ask the API themselves when the answer they waited for kept nothing', async () => {
    const { api, get } = await startSlow(30);
    await get('/api/tools');
    bus.announce('tools');
    api.fail = true;
    const answers = await Promise.all([get('/api/tools'), get('/api/tools'), get('/api/tools')]);
    expect(answers).toEqual(['failed', 'failed', 'failed']);
    expect(api.calls).toBe(4); // the first failed; the two that waited then asked, side by side
  });
});
