// Pages kept by the outer server (src/server/host/live-pages.ts) go stale only when what they show changes:
// a catalogue page when the catalogue does or one of its own tools' stock does, not another tool's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryBus, type Shows } from '../../src/server/caching/changes';
import { livePages } from '../../src/server/host/live-pages';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that answers kept pages first, else "renders" one (counted) and hands it over to be kept. */
async function start(shows: Shows, changes = memoryBus()) {
  const pages = livePages({ changes });
  const renders = { n: 0 };
  server = createServer((req, res) => {
    if (pages.serve(req, res, req.url!, [])) return;
    renders.n++;
    const handoff = pages.handoff(req.url!, (html) => html);
    const html = `<!doctype html><title>${req.url}</title><p>render ${renders.n}</p>`;
    void handoff(
      new Request(`http://x${req.url}`),
      new Response(html, { headers: { 'content-type': 'text/html' } }),
      shows,
    ).then(async (answer) => {
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
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
    const handoff = pages.handoff('/tools', (html) => html);
    changes.announce('stock', ['a']); // an order commits while the page renders
    await handoff(
      new Request('http://x/tools'),
      new Response('<p>old</p>', { headers: { 'content-type': 'text/html' } }),
      {
        kinds: ['tools', 'stock'],
        tools: ['a'],
      },
    );
    expect(pages.size().pages).toBe(0);
    const other = pages.handoff('/tools/page/2', (html) => html);
    changes.announce('stock', ['a']); // not on this page
    await other(
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
    for (let i = 0; i < 2000; i++) bus.announce('stock', ['z']);
    expect(bus.changedSince(start, { kinds: ['tools', 'stock'], tools: ['b'] })).toBe(true);
  });
});
