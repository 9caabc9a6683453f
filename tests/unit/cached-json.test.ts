// cachedJson (src/server/http/cache.ts): the body is exactly JSON.stringify's, a list is serialised in
// runs of elements, each once, the ETag follows the content, and a large body goes compressed to a client
// that accepts it.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { cachedJson, COMPRESS_FROM_BYTES } from '../../src/server/http/cache';
import type { LazyBytes, PublicAnswer } from '../../src/server/types';

function app(data: () => unknown) {
  return new Hono().get('/x', (c) => cachedJson(c, data()));
}
const get = async (a: Hono, etag?: string) => {
  const res = await a.request('/x', { headers: etag ? { 'if-none-match': etag } : {} });
  return { status: res.status, body: await res.text(), etag: res.headers.get('etag')! };
};

describe('cachedJson', () => {
  it('answers exactly what JSON.stringify would, for arrays of objects, empty arrays and plain objects', async () => {
    const values: unknown[] = [
      [
        { a: 1, b: 'x"y', c: [1, 2], d: null, e: undefined },
        { when: new Date(0), nested: [{ z: 'é — 🔨' }] },
      ],
      [],
      { services: [{ name: 'n' }], total: 1 },
      [[{ a: 1 }], [{ b: 2 }]],
    ];
    for (const value of values) expect((await get(app(() => value))).body).toBe(JSON.stringify(value));
  });

  it('a new list that reuses unchanged elements gets a new ETag; the same content gets the same one; 304 on a match', async () => {
    const one = { _id: 'a', availableQuantity: 5 };
    const two = { _id: 'b', availableQuantity: 7 };
    let list: unknown[] = [one, two];
    const a = app(() => list);
    const first = await get(a);
    expect((await get(a, first.etag)).status).toBe(304);
    list = [one, { ...two, availableQuantity: 6 }];
    const second = await get(a);
    expect(second.etag).not.toBe(first.etag);
    expect(JSON.parse(second.body)[1].availableQuantity).toBe(6);
    list = [{ ...one }, { ...two }]; // new objects, same content as the first list
    expect((await get(a)).etag).toBe(first.etag);
  });

  it('hands the outer server the same UTF-8 bytes it sends, with no copy made per read', async () => {
    const list = [{ name: 'é — 🔨' }, { name: 'b' }];
    const kept: PublicAnswer[] = [];
    const a = new Hono<{ Bindings: { keep: (answer: PublicAnswer) => void } }>().get('/x', (c) => cachedJson(c, list));
    const env = { keep: (answer: PublicAnswer) => kept.push(answer) };
    const sent = await (await a.request('/x', {}, env)).arrayBuffer();
    await a.request('/x', {}, env);
    expect(Buffer.from(sent).toString('utf8')).toBe(JSON.stringify(list));
    const bytesOf = (answer: PublicAnswer) => (answer.body as LazyBytes).bytes();
    expect(bytesOf(kept[0]).equals(Buffer.from(sent))).toBe(true);
    expect((kept[0].body as LazyBytes).length).toBe(sent.byteLength);
    expect(bytesOf(kept[1])).toBe(bytesOf(kept[0]));
  });

  it('a long list changed anywhere, grown or shrunk, answers exactly JSON.stringify, plain and in gzip', async () => {
    let list: object[] = Array.from({ length: 300 }, (_, i) => ({ _id: `t${i}`, name: `Hammer ${i} — 🔨`, qty: i }));
    const a = app(() => list);
    const check = async () => {
      const json = JSON.stringify(list);
      expect((await get(a)).body).toBe(json);
      const gz = await a.request('/x', { headers: { 'accept-encoding': 'gzip' } });
      const bytes = Buffer.from(await gz.arrayBuffer());
      expect(gz.headers.get('content-encoding')).toBe(json.length >= COMPRESS_FROM_BYTES ? 'gzip' : null);
      expect((gz.headers.get('content-encoding') ? gunzipSync(bytes) : bytes).toString()).toBe(json);
    };
    await check();
    for (const at of [0, 63, 64, 150, 299]) {
      list = list.map((item, i) => (i === at ? { ...item, qty: -1 } : item));
      await check();
    }
    list = [{ _id: 'new' }, ...list];
    await check();
    list = list.slice(0, 129);
    await check();
    list = list.slice(0, 1);
    await check();
  });

  describe('a body of COMPRESS_FROM_BYTES or more', () => {
    const big = Array.from({ length: 600 }, (_, i) => ({ _id: `t${i}`, name: `Claw hammer ${i} — 16 oz 🔨`, qty: i }));
    const json = JSON.stringify(big);
    const ask = (a: Hono<any>, headers: Record<string, string>, env?: object) => a.request('/x', { headers }, env);
    const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

    it('is large enough here to be compressed, and a small one never is', () => {
      expect(Buffer.byteLength(json)).toBeGreaterThanOrEqual(COMPRESS_FROM_BYTES);
    });

    it('a list goes in gzip (joined from its runs), else brotli, and an object in brotli, else gzip', async () => {
      const list = await ask(
        app(() => big),
        { 'accept-encoding': 'gzip, deflate, br' },
      );
      expect(list.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(await bytes(list)).toString()).toBe(json);
      const onlyBrotli = await ask(
        app(() => big),
        { 'accept-encoding': 'br' },
      );
      expect(onlyBrotli.headers.get('content-encoding')).toBe('br');
      expect(brotliDecompressSync(await bytes(onlyBrotli)).toString()).toBe(json);
      const object = { tools: big };
      const whole = await ask(
        app(() => object),
        { 'accept-encoding': 'gzip, deflate, br' },
      );
      expect(whole.headers.get('content-encoding')).toBe('br');
      expect(brotliDecompressSync(await bytes(whole)).toString()).toBe(JSON.stringify(object));
    });

    it('goes compressed as Accept-Encoding allows, and plain to a client that accepts neither', async () => {
      const a = app(() => big);
      const br = await ask(a, { 'accept-encoding': 'br' });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(brotliDecompressSync(await bytes(br)).toString()).toBe(json);
      const gz = await ask(a, { 'accept-encoding': 'gzip' });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(await bytes(gz)).toString()).toBe(json);
      const plainAsks: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'identity' },
        { 'accept-encoding': 'deflate' },
      ];
      for (const headers of plainAsks) {
        const plain = await ask(a, headers);
        expect(plain.headers.get('content-encoding')).toBeNull();
        expect(await plain.text()).toBe(json);
      }
      // Every answer says it varies, so a cache between never gives brotli to a client without it.
      expect(br.headers.get('vary')).toBe('Accept-Encoding');
      expect(gz.headers.get('vary')).toBe('Accept-Encoding');
      expect((await ask(a, {})).headers.get('vary')).toBe('Accept-Encoding');
      // One weak ETag for all encodings (the same JSON): a 304 answers whichever the client holds.
      expect(br.headers.get('etag')).toBe(gz.headers.get('etag'));
      const notModified = await ask(a, { 'accept-encoding': 'br', 'if-none-match': br.headers.get('etag')! });
      expect(notModified.status).toBe(304);
    });

    it('is compressed once per body: later answers and the outer server get the same bytes', async () => {
      const kept: PublicAnswer[] = [];
      const a = new Hono<{ Bindings: { keep: (answer: PublicAnswer) => void } }>().get('/x', (c) => cachedJson(c, big));
      const env = { keep: (answer: PublicAnswer) => kept.push(answer) };
      const first = await bytes(await ask(a, { 'accept-encoding': 'br' }, env));
      await ask(a, { 'accept-encoding': 'br' }, env);
      expect(kept[0].encoded!('br').equals(first)).toBe(true);
      expect(kept[1].encoded!('br')).toBe(kept[0].encoded!('br'));
      expect(gunzipSync(kept[0].encoded!('gzip')).toString()).toBe(json);
    });

    it('a small body is sent as it is, with no Vary, and handed over with nothing to encode', async () => {
      const kept: PublicAnswer[] = [];
      const a = new Hono<{ Bindings: { keep: (answer: PublicAnswer) => void } }>().get('/x', (c) =>
        cachedJson(c, big.slice(0, 2)),
      );
      const res = await ask(a, { 'accept-encoding': 'br' }, { keep: (answer: PublicAnswer) => kept.push(answer) });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toBeNull();
      expect(await res.text()).toBe(JSON.stringify(big.slice(0, 2)));
      expect(kept[0].encoded).toBeUndefined();
    });
  });
});
