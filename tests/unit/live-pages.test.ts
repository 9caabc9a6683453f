// Pages kept by the outer server (src/server/host/live-pages.ts) go stale only when what they show changes:
// a catalogue page when the catalogue does or one of its own tools' stock does, not another tool's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryBus, type Shows } from '../../src/server/caching/changes';
import { livePages } from '../../src/server/host/live-pages';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * A server that answers kept pages first, then joins a render under way, else "renders" one (counted,
 * taking `renderMs`) and hands it over to be kept. `status` answers other than 200 keep nothing, as
 * Astro's 404 page does not.
 */
async function start(shows: Shows, changes = memoryBus(), renderMs = 0) {
  const pages = livePages({ changes });
  const renders = { n: 0, status: 200, onRender: () => {} };
  server = createServer((req, res) => {
    if (pages.serve(req, res, req.url!, [])) return;
    void (async () => {
      if (await pages.join(req, res, req.url!, [])) return;
      const n = ++renders.n;
      const handoff = pages.handoff(req.url!, (html) => ({ html, hashes: [] }));
      try {
        await new Promise((resolve) => setTimeout(resolve, renderMs));
        renders.onRender();
        const html = `<!doctype html><title>${req.url}</title><p>render ${n}</p>`;
        if (renders.status !== 200) {
          res.writeHead(renders.status).end(`render ${n}`);
          return;
        }
        const answer = await handoff.keep(
          new Request(`http://x${req.url}`),
          new Response(html, { headers: { 'content-type': 'text/html' } }),
          shows,
        );
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      } catch {
        res.writeHead(500).end('failed');
      } finally {
        handoff.abandon();
      }
    })();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return { changes, renders, get: async (path: string) => (await fetch(url + path)).text() };
}

describe('live pages', () => {
  it("a catalogue page stays through another tool's stock change, and is made again for its own tool's or the catalogue's", async () => {
    const { changes, renders, get } = await start({ kinds: ['tools', 'stock'], tools: ['a', 'b'] });
    expect(await get('/tools')).toContain('render 1');
    expect(await get('/tools')).toContain('render 1');
    changes.announce('stock', ['z']);
    changes.announce('reviews');
    expect(await get('/tools')).toContain('render 1');
    changes.announce('stock', ['b']);
    expect(await get('/tools')).toContain('render 2');
    changes.announce('stock'); // did not say which tools
    expect(await get('/tools')).toContain('render 3');
    changes.announce('tools');
    expect(await get('/tools')).toContain('render 4');
    expect(renders.n).toBe(4);
  });

  it('a page that does not show stock stays through every stock change', async () => {
    const { changes, get } = await start({ kinds: ['tools', 'reviews'] });
    await get('/tools/a');
    changes.announce('stock', ['a']);
    changes.announce('stock');
    expect(await get('/tools/a')).toContain('render 1');
    changes.announce('reviews');
    expect(await get('/tools/a')).toContain('render 2');
  });

  it('is not kept when what it shows changed while it was rendered', async () => {
    const changes = memoryBus();
    const pages = livePages({ changes });
    const handoff = pages.handoff('/tools', (html) => ({ html, hashes: [] }));
    changes.announce('stock', ['a']); // an order commits while the page renders
    await handoff.keep(
      new Request('http://x/tools'),
      new Response('<p>old</p>', { headers: { 'content-type': 'text/html' } }),
      {
        kinds: ['tools', 'stock'],
        tools: ['a'],
      },
    );
    expect(pages.size().pages).toBe(0);
    const other = pages.handoff('/tools/page/2', (html) => ({ html, hashes: [] }));
    changes.announce('stock', ['a']); // not on this page
    await other.keep(
      new Request('http://x/tools/page/2'),
      new Response('<p>2</p>', { headers: { 'content-type': 'text/html' } }),
      {
        kinds: ['tools', 'stock'],
        tools: ['c'],
      },
    );
    expect(pages.size().pages).toBe(1);
  });
});

describe('a page made again', () => {
  const shows: Shows = { kinds: ['tools', 'reviews'] };
  const render = async (pages: ReturnType<typeof livePages>, html: string) => {
    const answer = await pages
      .handoff('/tools/a', (page) => ({ html: page, hashes: [] }))
      .keep(
        new Request('http://x/tools/a', { headers: { 'accept-encoding': 'br' } }),
        new Response(html, { headers: { 'content-type': 'text/html', 'cache-control': 'no-cache' } }),
        shows,
      );
    return {
      etag: answer.headers.get('etag'),
      text: brotliDecompressSync(Buffer.from(await answer.arrayBuffer())).toString(),
    };
  };

  it('with the same bytes is not compressed again, and with other bytes is', async () => {
    const changes = memoryBus();
    const pages = livePages({ changes });
    const html = `<!doctype html><title>a</title><p>${'a tool page '.repeat(200)}</p>`;
    const first = await render(pages, html);
    changes.announce('reviews'); // a review elsewhere: the copy is stale, the page comes out the same
    const again = await render(pages, html);
    expect(again).toEqual(first);
    expect(pages.size()).toMatchObject({ pages: 1, compressions: 1 });
    changes.announce('reviews');
    const changed = await render(pages, html.replace('<p>', '<p>new '));
    expect(changed.text).toContain('<p>new a tool page');
    expect(changed.etag).not.toBe(first.etag);
    expect(pages.size()).toMatchObject({ pages: 1, compressions: 2 });
  });
});

describe('requests that miss while a page renders', () => {
  const catalogue: Shows = { kinds: ['tools', 'stock'], tools: ['a', 'b'] };

  it('wait for the render under way instead of each rendering the page again', async () => {
    const { changes, renders, get } = await start(catalogue, memoryBus(), 50);
    await get('/tools');
    changes.announce('stock', ['a']); // an order for one of its tools: the kept copy is stale
    const answers = await Promise.all(Array.from({ length: 10 }, () => get('/tools')));
    expect(renders.n).toBe(2);
    expect(new Set(answers)).toEqual(new Set([expect.stringContaining('render 2')]));
  });

  it('never get a render that may miss a change made before they arrived', async () => {
    const { changes, renders, get } = await start(catalogue, memoryBus(), 80);
    await get('/tools');
    changes.announce('stock', ['a']);
    const first = get('/tools'); // renders 2
    await new Promise((resolve) => setTimeout(resolve, 20));
    changes.announce('stock', ['b']); // commits while render 2 runs: render 2 may not show it
    const second = get('/tools');
    expect(await first).toContain('render 2');
    expect(await second).toContain('render 3');
    // Render 3 began after that change: the copy it keeps is served from then on.
    expect(await get('/tools')).toContain('render 3');
    expect(renders.n).toBe(3);
  });

  it('share a render only of their own page, and not once the change that made it stale came after it began', async () => {
    const { changes, renders, get } = await start(catalogue, memoryBus(), 50);
    await Promise.all([get('/tools'), get('/tools/page/2')]);
    changes.announce('tools');
    const [one, two] = await Promise.all([get('/tools'), get('/tools/page/2')]);
    expect(one).toContain('/tools</title>');
    expect(two).toContain('/tools/page/2</title>');
    expect(renders.n).toBe(4);
  });

  it('render the page themselves when the render they waited for kept nothing (a 404, an error)', async () => {
    const { changes, renders, get } = await start(catalogue, memoryBus(), 30);
    await get('/tools');
    changes.announce('tools'); // say, its tools were deleted
    renders.status = 404;
    const answers = await Promise.all([get('/tools'), get('/tools'), get('/tools')]);
    // The first render kept nothing; the two that waited then rendered themselves, side by side.
    expect(renders.n).toBe(4);
    expect(answers.every((text) => /^render \d$/.test(text))).toBe(true);
    renders.status = 200;
    let fail = true;
    renders.onRender = () => {
      if (fail) {
        fail = false;
        throw new Error('render failed');
      }
    };
    changes.announce('tools');
    const failed = get('/tools');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await get('/tools')).toContain('render 6');
    expect(await failed).toBe('failed');
  });
});

describe('changedSince', () => {
  it('says whether a change since a version touched what is shown, and true when it is too far back to tell', () => {
    const bus = memoryBus();
    const start = bus.version;
    bus.announce('stock', ['a']);
    bus.announce('reviews');
    expect(bus.changedSince(start, { kinds: ['tools', 'stock'], tools: ['b'] })).toBe(false);
    expect(bus.changedSince(start, { kinds: ['tools', 'stock'], tools: ['a'] })).toBe(true);
    expect(bus.changedSince(start, { kinds: ['tools', 'stock'] })).toBe(true);
    expect(bus.changedSince(start, { kinds: ['reviews'] })).toBe(true);
    expect(bus.changedSince(bus.version, { kinds: ['reviews'] })).toBe(false);
    // `until`: only changes up to that version.
    const middle = bus.version;
    bus.announce('stock', ['b']);
    expect(bus.changedSince(start, { kinds: ['stock'], tools: ['b'] }, middle)).toBe(false);
    expect(bus.changedSince(start, { kinds: ['stock'], tools: ['b'] })).toBe(true);
    for (let i = 0; i < 2000; i++) bus.announce('stock', ['z']);
    expect(bus.changedSince(start, { kinds: ['tools', 'stock'], tools: ['b'] })).toBe(true);
  });
});
