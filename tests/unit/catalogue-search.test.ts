import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_PAGE_SIZE, catalogueHref, catalogueSlice, compareBy, inStock, pageCount } from '../../src/lib/catalogue';
import type { Tool } from '../../src/lib/entities';
import { searchEntry, searchTools, searchWords } from '../../src/lib/search';
import { compressHtml } from '../../src/server/compress-html';
import { liveSearchIndex, searchIndexResponse } from '../../src/server/search-index';

const tool = (n: number, extra: Partial<Tool> = {}): Tool => ({
  _id: `id${n}`,
  name: `Tool ${n}`,
  img: '/x.png',
  description: `Description ${n}`,
  minimumOrderQuantity: 1,
  availableQuantity: 10,
  price: n,
  ...extra,
});

describe('catalogue paging', () => {
  const tools = Array.from({ length: 50 }, (_, i) => tool(i));
  it('cuts 24 a page and knows the last page', () => {
    expect(pageCount(50)).toBe(3);
    expect(pageCount(0)).toBe(1);
    expect(catalogueSlice(tools, 1)).toHaveLength(CATALOGUE_PAGE_SIZE);
    expect(catalogueSlice(tools, 3)!.map((t) => t._id)).toEqual(['id48', 'id49']);
    expect(catalogueSlice([], 1)).toEqual([]);
  });
  it('has no page 0, 4 or 1.5', () => {
    for (const page of [0, 4, 1.5, NaN, -1]) expect(catalogueSlice(tools, page)).toBeUndefined();
  });
  it('links page 1 as /tools', () => {
    expect(catalogueHref(1)).toBe('/tools');
    expect(catalogueHref(2)).toBe('/tools/page/2');
  });
  it('is in stock when at least the minimum order is available', () => {
    expect(inStock({ availableQuantity: 5, minimumOrderQuantity: 5 })).toBe(true);
    expect(inStock({ availableQuantity: 4, minimumOrderQuantity: 5 })).toBe(false);
    expect(inStock({ availableQuantity: 0, minimumOrderQuantity: 0 })).toBe(false);
  });
  it('sorts by price both ways and by name, ties in catalogue order', () => {
    const rows = [
      { order: 0, priceCents: 500, name: 'b hammer' },
      { order: 1, priceCents: 100, name: 'A chisel' },
      { order: 2, priceCents: 500, name: 'c saw' },
    ];
    const ids = (key: Parameters<typeof compareBy>[0]) => [...rows].sort(compareBy(key)).map((r) => r.order);
    expect(ids('price-asc')).toEqual([1, 0, 2]);
    expect(ids('price-desc')).toEqual([0, 2, 1]);
    expect(ids('name')).toEqual([1, 0, 2]);
    expect(ids('newest')).toEqual([0, 1, 2]);
  });
});

describe('search', () => {
  const index = {
    tools: [
      tool(1, { name: 'Claw Hammer', description: 'Forged steel, fibreglass handle.' }),
      tool(2, { name: 'Sledge', description: 'A heavy hammer for demolition.' }),
      tool(3, { name: 'Café Chisel', description: 'Wood chisel.' }),
    ].map(searchEntry),
  };
  const ids = (q: string) => searchTools(index, q).map((e) => e[0]);
  it('splits into lower-case words without accents', () => {
    expect(searchWords('Café  Ham-mer 12mm')).toEqual(['cafe', 'ham', 'mer', '12mm']);
  });
  it('matches word starts in name and description, every query word, name first', () => {
    expect(ids('ham')).toEqual(['id1', 'id2']);
    expect(ids('hammer demol')).toEqual(['id2']);
    expect(ids('fibreglass')).toEqual(['id1']);
    expect(ids('cafe')).toEqual(['id3']);
    expect(ids('amme')).toEqual([]);
    expect(ids('  ')).toEqual([]);
  });
});

describe('live search index', () => {
  it('rebuilds when names or descriptions change, not when stock does', async () => {
    let tools = [tool(1)];
    const current = liveSearchIndex(async () => tools);
    const first = await current();
    tools = [{ ...tool(1), availableQuantity: 3 }];
    expect(await current()).toBe(first);
    tools = [tool(2), tool(1)];
    const second = await current();
    expect(second.etag).not.toBe(first.etag);
    expect(JSON.parse(brotliDecompressSync(second.br).toString()).tools.map((e: string[]) => e[0])).toEqual(['id2', 'id1']);
  });
  it('answers brotli when accepted and 304 for the same ETag', async () => {
    const file = await liveSearchIndex(async () => [tool(1)])();
    const full = searchIndexResponse(file, new Request('http://x/', { headers: { 'accept-encoding': 'gzip, br' } }));
    expect(full.headers.get('content-encoding')).toBe('br');
    const again = searchIndexResponse(file, new Request('http://x/', { headers: { 'if-none-match': file.etag } }));
    expect(again.status).toBe(304);
  });
});

describe('pages rendered on request', () => {
  const html = `<!doctype html><p>${'Forged hammers. '.repeat(200)}</p>`;
  const page = () => new Response(html, { headers: { 'content-type': 'text/html' } });
  it('leave brotli-compressed when the browser takes it', async () => {
    const sent = await compressHtml(new Request('http://x/', { headers: { 'accept-encoding': 'gzip, deflate, br' } }), page());
    expect(sent.headers.get('content-encoding')).toBe('br');
    expect(sent.headers.get('vary')).toContain('Accept-Encoding');
    expect(brotliDecompressSync(Buffer.from(await sent.arrayBuffer())).toString()).toBe(html);
  });
  it('leave as they are for a client that takes no encoding, and JSON is untouched', async () => {
    const plain = await compressHtml(new Request('http://x/'), page());
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(html);
    const json = new Response('{}', { headers: { 'content-type': 'application/json' } });
    expect(await compressHtml(new Request('http://x/', { headers: { 'accept-encoding': 'br' } }), json)).toBe(json);
  });
});
