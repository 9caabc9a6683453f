// cachedJson (src/server/http/cache.ts): the body is exactly JSON.stringify's, an array's elements are
// serialised once each, and the ETag follows the content.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { cachedJson } from '../../src/server/http/cache';

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
    const kept: { body: Buffer | string }[] = [];
    const a = new Hono<{ Bindings: { keep: (answer: { body: Buffer | string }) => void } }>().get('/x', (c) =>
      cachedJson(c, list),
    );
    const env = { keep: (answer: { body: Buffer | string }) => kept.push(answer) };
    const sent = await (await a.request('/x', {}, env)).arrayBuffer();
    await a.request('/x', {}, env);
    expect(Buffer.from(sent).toString('utf8')).toBe(JSON.stringify(list));
    expect(Buffer.isBuffer(kept[0].body) && kept[0].body.equals(Buffer.from(sent))).toBe(true);
    expect(kept[1].body).toBe(kept[0].body);
  });
});
