import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CATALOGUE_PAGE_SIZE,
  catalogueHref,
  catalogueSlice,
  compareBy,
  inStock,
  pageCount,
} from '../../src/lib/catalogue';
import type { Tool } from '../../src/lib/entities';
import { SEARCH_BASE_PATH } from '../../src/lib/search';
import { compressHtml } from '../../src/server/host/compress-html';
import {
  buildSearchFiles,
  liveSearchIndex,
  searchFileResponse,
  writeSearchFiles,
  type LiveSearchIndex,
  type SearchFile,
} from '../../src/server/host/search-index';

/** Live indexes made by a test, closed after it (their chunk files open until then). */
const opened: LiveSearchIndex[] = [];
const live = (...args: Parameters<typeof liveSearchIndex>) => {
  const index = liveSearchIndex(...args);
  opened.push(index);
  return index;
};
afterEach(() => {
  for (const index of opened.splice(0)) index.close();
});

const tool = (n: number, extra: Partial<Tool> = {}): Tool => ({
  _id: `id${n}`,
  name: `Tool ${n}`,
  img: '/x.png',
  description: `Description ${n}`,
  minimumOrderQuantity: 1,
  availableQuantity: 10,
  price: n,
  priceBreaks: [],
  packSize: 1,
  quoteAbove: null,
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

/** The live index served over HTTP as src/pages/pagefind serves it, searched with Pagefind's own browser API. */
async function servedIndex(list: () => Promise<readonly Tool[]>) {
  const { find } = live(list);
  const server = createServer((req, res) => {
    const request = new Request(`http://x${req.url}`, { method: req.method, headers: req.headers as HeadersInit });
    const name = new URL(request.url).pathname.slice(SEARCH_BASE_PATH.length);
    void find(name).then(async (file) => {
      const response = searchFileResponse(file, request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${SEARCH_BASE_PATH}`;
  /** Search as a page opened now would: a fresh Pagefind reading the entry file served now. */
  async function search(term: string): Promise<string[]> {
    const script = await (await fetch(`${base}pagefind.js`)).text();
    const api = (await import(`data:text/javascript;base64,${Buffer.from(script).toString('base64')}`)) as PagefindApi;
    const instance = api.createInstance({ basePath: base });
    const { results } = await instance.search(term);
    const data = await Promise.all(results.map((r) => r.data()));
    await instance.destroy();
    return data.map((d) => `${d.meta.title} ${new URL(d.url, base).pathname}`);
  }
  return { find, base, search, close: () => new Promise((resolve) => server.close(resolve)) };
}
interface PagefindApi {
  createInstance(options: { basePath: string }): {
    search(term: string): Promise<{ results: { data(): Promise<{ url: string; meta: Record<string, string> }> }[] }>;
    destroy(): Promise<void>;
  };
}

describe('search (Pagefind)', () => {
  const hammer = tool(1, { name: 'Claw Hammer', description: 'Forged steel, fibreglass handle.' });
  const sledge = tool(2, { name: 'Sledge', description: 'A heavy hammer for demolition.' });
  const chisel = tool(3, { name: 'Café Chisel', description: 'Wood chisel.' });
  let served: Awaited<ReturnType<typeof servedIndex>> | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it('finds name and description words, word starts, every query word, without accents', async () => {
    served = await servedIndex(async () => [hammer, sledge, chisel]);
    expect(await served.search('fibreglass')).toEqual(['Claw Hammer /tools/id1']);
    expect((await served.search('ham')).sort()).toEqual(['Claw Hammer /tools/id1', 'Sledge /tools/id2']);
    expect(await served.search('hammer demolition')).toEqual(['Sledge /tools/id2']);
    expect(await served.search('cafe')).toEqual(['Café Chisel /tools/id3']);
    expect(await served.search('zzqxnothing')).toEqual([]);
  });

  it('finds a tool added after the index was built at the very next search, and no longer one deleted', async () => {
    let tools: Tool[] = [hammer, sledge];
    served = await servedIndex(async () => tools);
    expect(await served.search('quenchforged')).toEqual([]);
    const mallet = tool(9, { name: 'Fresh Mallet', description: 'A rubber mallet, quenchforged steel core.' });
    tools = [mallet, ...tools]; // the store's list after a 'tools' change is a new array
    // Deterministic (issue 24): the search that notices the change waits for the new index.
    expect(await served.search('quenchforged')).toEqual(['Fresh Mallet /tools/id9']);
    expect(await served.search('quenchfor')).toEqual(['Fresh Mallet /tools/id9']);
    tools = [hammer, sledge];
    expect(await served.search('quenchforged')).toEqual([]);
  });

  it('refresh builds the new index before anyone searches (the store calls it on each tool change)', async () => {
    let tools = [hammer];
    const index = live(async () => tools);
    const entry = (await index.find('pagefind-entry.json'))!;
    tools = [sledge, hammer];
    await index.refresh();
    // Served at once: no build left to wait for.
    const started = performance.now();
    expect((await index.find('pagefind-entry.json'))!.etag).not.toBe(entry.etag);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('rebuilds when names or descriptions change, not when stock does; past the wait the last index answers', async () => {
    let tools = [hammer];
    const { find } = live(async () => tools, 0);
    const entry = (await find('pagefind-entry.json'))!;
    const metaOf = (file: SearchFile) => JSON.parse(Buffer.from(file.body).toString()).languages.en.hash as string;
    const firstMeta = `pagefind.${metaOf(entry)}.pf_meta`;
    tools = [{ ...hammer, availableQuantity: 3 }];
    expect(await find('pagefind-entry.json')).toBe(entry);
    tools = [sledge, hammer];
    // With no time to wait, the request that notices the change is answered by the index it has.
    expect(await find('pagefind-entry.json')).toBe(entry);
    await expect.poll(async () => (await find('pagefind-entry.json'))!.etag, { timeout: 10_000 }).not.toBe(entry.etag);
    expect(metaOf((await find('pagefind-entry.json'))!)).not.toBe(metaOf(entry));
    // A browser that read the previous entry file still gets that index's chunks.
    expect(await find(firstMeta)).toBeDefined();
  });

  it('serves each file with its type and caching: hashed ones for good, the rest revalidated by ETag', async () => {
    const { find } = live(async () => [hammer]);
    const get = (file: SearchFile | undefined, headers: Record<string, string> = {}) =>
      searchFileResponse(file, new Request('http://x/', { headers }));
    const script = get(await find('pagefind.js'), { 'accept-encoding': 'gzip, br' });
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('content-encoding')).toBe('br');
    expect(script.headers.get('cache-control')).toBe('no-cache');
    const entry = (await find('pagefind-entry.json'))!;
    expect(get(entry).headers.get('content-type')).toMatch(/^application\/json/);
    expect(get(entry).headers.get('cache-control')).toBe('no-cache');
    expect(get(entry, { 'if-none-match': entry.etag }).status).toBe(304);
    const meta = JSON.parse(Buffer.from(entry.body).toString()).languages.en.hash as string;
    const chunk = get(await find(`pagefind.${meta}.pf_meta`));
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(chunk.headers.get('content-encoding')).toBeNull();
    // Pagefind's own UI is not ours to serve, nor anything else.
    expect(get(await find('pagefind-ui.js')).status).toBe(404);
    expect(get(await find('../package.json')).status).toBe(404);
  });

  it('keeps the chunks of the two indexes served in files of their own, leaving nothing on disk', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'search-tmp-'));
    const was = process.env.TMPDIR;
    process.env.TMPDIR = tmp; // os.tmpdir() reads it on each call
    /** This process's open files in `tmp` (unlinked, so their links read "… (deleted)"). */
    const openChunkFiles = async () =>
      (
        await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')))
      ).filter((target) => target.startsWith(tmp));
    try {
      let tools = [hammer];
      const index = live(async () => tools);
      await index.refresh();
      expect(await openChunkFiles()).toHaveLength(1);
      for (const next of [[hammer, sledge], [sledge], [chisel, hammer]]) {
        tools = next;
        await index.refresh();
      }
      // The latest and the one before it (a browser may still read its chunks); older ones are closed.
      expect(await openChunkFiles()).toHaveLength(2);
      expect(await readdir(tmp)).toEqual([]);
      const entry = (await index.find('pagefind-entry.json'))!;
      const meta = JSON.parse(Buffer.from(entry.body).toString()).languages.en.hash as string;
      const chunk = (await index.find(`pagefind.${meta}.pf_meta`))!;
      expect(chunk.body.length).toBeGreaterThan(0);
      expect(chunk.etag).toMatch(/^"[\w-]{22}"$/);
      // The runtime's close closes them.
      index.close();
      expect(await openChunkFiles()).toHaveLength(0);
    } finally {
      if (was === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = was;
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it("writes the build's copy: the same files as the live index of the same tools", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pagefind-'));
    try {
      const files = await buildSearchFiles([hammer, sledge]);
      await writeSearchFiles(files, dir);
      const index = live(async () => [hammer, sledge]);
      for (const [name, body] of files) {
        expect(Buffer.from(await readFile(path.join(dir, name))).equals(Buffer.from(body))).toBe(true);
        expect(Buffer.from((await index.find(name))!.body).equals(Buffer.from(body))).toBe(true);
      }
      expect([...files.keys()]).toContain('pagefind.js');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('pages rendered on request', () => {
  const html = `<!doctype html><p>${'Forged hammers. '.repeat(200)}</p>`;
  const page = () => new Response(html, { headers: { 'content-type': 'text/html' } });
  it('leave brotli-compressed when the browser takes it', async () => {
    const sent = await compressHtml(
      new Request('http://x/', { headers: { 'accept-encoding': 'gzip, deflate, br' } }),
      page(),
    );
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
