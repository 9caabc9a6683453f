// The outer server answers repeated public reads from memory until the change bus's version changes
// (src/server/host/public-reads.ts). Every write that changes what GET /tools, /tools/{id} or /reviews
// answers must bump it, or the store would show stale stock; a read or a refused write need not.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { makeTool, placeOrder } from './helpers';
import { startOuter } from './outer';
import { requestBytes as get } from '../http-bytes';

let runtime: TestRuntime;
let admin: string;
let alice: string;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
});
afterAll(() => runtime.close());

/** Whether running `write` bumped the version public copies are checked against. */
async function bumps(write: () => Promise<unknown>): Promise<boolean> {
  const before = runtime.deps.changes.version;
  await write();
  return runtime.deps.changes.version !== before;
}

describe('writes that change public reads drop the copies of them', () => {
  it('adding, restocking and deleting a tool', async () => {
    let toolId = '';
    expect(await bumps(async () => (toolId = await makeTool(runtime, admin)))).toBe(true);
    expect(
      await bumps(() =>
        runtime.request('PUT', `/api/tool/update/${toolId}`, { token: admin, json: { availableQuantity: 9 } }),
      ),
    ).toBe(true);
    expect(await bumps(() => runtime.request('DELETE', `/api/tools/dlt/${toolId}`, { token: admin }))).toBe(true);
  });

  it('placing an order and deleting it (stock taken, then given back)', async () => {
    const toolId = await makeTool(runtime, admin);
    let orderId = '';
    expect(await bumps(async () => (orderId = await placeOrder(runtime, alice, toolId, 2)))).toBe(true);
    expect(await bumps(() => runtime.request('DELETE', `/api/booking/dlt/${orderId}`, { token: alice }))).toBe(true);
  });

  it('an order whose hold runs out (its units come back)', async () => {
    const toolId = await makeTool(runtime, admin);
    await placeOrder(runtime, alice, toolId, 3);
    runtime.advance(25 * 3600_000);
    expect(await bumps(() => runtime.checkout.expireHolds())).toBe(true);
  });

  it('a new review', async () => {
    const review = { name: 'Public Reads', Messege: 'Shows on the first page at once.', ratings: 4 };
    expect(await bumps(() => runtime.request('POST', '/api/review', { token: alice, json: review }))).toBe(true);
    const page = (await runtime.request('GET', '/api/reviews?limit=5&pageNumber=0')).data;
    expect(page.services[0]).toMatchObject({ name: review.name, Messege: review.Messege });
  });

  it('reads and refused writes keep them', async () => {
    const toolId = await makeTool(runtime, admin);
    expect(await bumps(() => runtime.request('GET', '/api/tools'))).toBe(false);
    expect(await bumps(() => runtime.request('GET', `/api/tools/${toolId}`))).toBe(false);
    expect(await bumps(() => runtime.request('GET', '/api/reviews?limit=5&pageNumber=0'))).toBe(false);
    expect(
      await bumps(() =>
        runtime.request('PUT', `/api/tool/update/${toolId}`, { token: alice, json: { availableQuantity: 1 } }),
      ),
    ).toBe(false);
  });
});

describe('while orders flow, reads stay exact and copies of other tools stay', () => {
  it('a read through the outer server after an order commits never shows the old count, with reads in flight all along', async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 60, minimumOrderQuantity: 1 });
    const outer = await startOuter(runtime);
    try {
      const stockOf = async (path: string) => {
        const res = await outer.raw('GET', path);
        expect(res.status).toBe(200);
        const data = JSON.parse(res.body);
        return (Array.isArray(data) ? data.find((t: { _id: string }) => t._id === toolId) : data)
          .availableQuantity as number;
      };
      let flowing = true;
      // Readers that keep the copies warm (and race every write) while the orders go in.
      const readers = Array.from({ length: 3 }, async () => {
        while (flowing) await stockOf(`/api/tools/${toolId}`);
      });
      try {
        for (let n = 1; n <= 12; n++) {
          await placeOrder(runtime, alice, toolId, 1);
          expect(await stockOf(`/api/tools/${toolId}`)).toBe(60 - n);
          expect(await stockOf('/api/tools')).toBe(60 - n);
          expect((await runtime.request('GET', `/api/tools/${toolId}`)).data.availableQuantity).toBe(60 - n);
        }
      } finally {
        flowing = false;
        await Promise.all(readers);
      }
    } finally {
      await outer.close();
    }
  });

  it("an order names its tool: copies of another tool's answer stay current, the list's do not", async () => {
    const mine = await makeTool(runtime, admin);
    const other = await makeTool(runtime, admin);
    const changes = runtime.deps.changes;
    const otherCopy = changes.versionOf(['tools', 'stock'], [other]);
    const mineCopy = changes.versionOf(['tools', 'stock'], [mine]);
    const list = changes.versionOf(['tools', 'stock']);
    const reviews = changes.versionOf(['reviews']);
    const orderId = await placeOrder(runtime, alice, mine, 2);
    expect(changes.versionOf(['tools', 'stock'], [other])).toBe(otherCopy);
    expect(changes.versionOf(['reviews'])).toBe(reviews);
    expect(changes.versionOf(['tools', 'stock'], [mine])).not.toBe(mineCopy);
    expect(changes.versionOf(['tools', 'stock'])).not.toBe(list);
    const before = changes.versionOf(['tools', 'stock'], [mine]);
    expect((await runtime.request('DELETE', `/api/booking/dlt/${orderId}`, { token: alice })).status).toBe(200);
    expect(changes.versionOf(['tools', 'stock'], [mine])).not.toBe(before);
    expect(changes.versionOf(['tools', 'stock'], [other])).toBe(otherCopy);
  });
});

describe('the whole catalogue, compressed for a client that accepts it', () => {
  it('GET /api/tools goes in gzip (joined from its runs) or brotli from the API and from the kept copy, the same JSON as plain, and a stock change shows', async () => {
    // Enough tools for a body worth compressing (COMPRESS_FROM_BYTES).
    for (let i = 0; i < 80; i++) await makeTool(runtime, admin);
    const toolId = await makeTool(runtime, admin, { availableQuantity: 30 });
    const outer = await startOuter(runtime);
    try {
      const plain = await get(outer.port, '/api/tools', {});
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const json = plain.body.toString();
      for (let round = 0; round < 2; round++) {
        // The first read after a change is the API's answer, the next ones the outer server's copy.
        for (const [accept, encoding, decode] of [
          ['gzip, deflate, br', 'gzip', gunzipSync],
          ['br', 'br', brotliDecompressSync],
        ] as const) {
          for (let n = 0; n < 2; n++) {
            const res = await get(outer.port, '/api/tools', { 'accept-encoding': accept });
            expect(res.status, res.body.toString()).toBe(200);
            expect(res.headers['content-encoding']).toBe(encoding);
            expect(res.headers.vary).toBe('Accept-Encoding');
            expect(res.body.length).toBeLessThan(json.length / 3);
            const tools = JSON.parse(decode(res.body).toString()) as { _id: string; availableQuantity: number }[];
            expect(tools.find((t) => t._id === toolId)!.availableQuantity).toBe(30 - round);
          }
        }
        await placeOrder(runtime, alice, toolId, 1);
      }
    } finally {
      await outer.close();
    }
  });
});
