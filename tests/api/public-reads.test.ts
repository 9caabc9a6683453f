// The outer server answers repeated public reads from memory until the change bus's version changes
// (src/server/public-reads.ts). Every write that changes what GET /tools, /tools/{id} or /reviews
// answers must bump it, or the store would show stale stock; a read or a refused write need not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, createTestStore, type TestStore } from './harness';
import { makeTool, placeOrder } from './helpers';

let store: TestStore;
let admin: string;
let alice: string;

beforeAll(async () => {
  store = await createTestStore();
  admin = await store.tokenFor(ADMIN);
  alice = await store.tokenFor(ALICE);
});
afterAll(() => store.close());

/** Whether running `write` bumped the version public copies are checked against. */
async function bumps(write: () => Promise<unknown>): Promise<boolean> {
  const before = store.deps.changes.version;
  await write();
  return store.deps.changes.version !== before;
}

describe('writes that change public reads drop the copies of them', () => {
  it('adding, restocking and deleting a tool', async () => {
    let toolId = '';
    expect(await bumps(async () => (toolId = await makeTool(store, admin)))).toBe(true);
    expect(
      await bumps(() => store.request('PUT', `/api/tool/update/${toolId}`, { token: admin, json: { availableQuantity: 9 } })),
    ).toBe(true);
    expect(await bumps(() => store.request('DELETE', `/api/tools/dlt/${toolId}`, { token: admin }))).toBe(true);
  });

  it('placing an order and deleting it (stock taken, then given back)', async () => {
    const toolId = await makeTool(store, admin);
    let orderId = '';
    expect(await bumps(async () => (orderId = await placeOrder(store, alice, toolId, 2)))).toBe(true);
    expect(await bumps(() => store.request('DELETE', `/api/booking/dlt/${orderId}`, { token: alice }))).toBe(true);
  });

  it('an order whose hold runs out (its units come back)', async () => {
    const toolId = await makeTool(store, admin);
    await placeOrder(store, alice, toolId, 3);
    store.advance(25 * 3600_000);
    expect(await bumps(() => store.checkout.expireHolds())).toBe(true);
  });

  it('a new review', async () => {
    const review = { name: 'Public Reads', Messege: 'Shows on the first page at once.', ratings: 4 };
    expect(await bumps(() => store.request('POST', '/api/review', { token: alice, json: review }))).toBe(true);
    const page = (await store.request('GET', '/api/reviews?limit=5&pageNumber=0')).data;
    expect(page.services[0]).toMatchObject({ name: review.name, Messege: review.Messege });
  });

  it('reads and refused writes keep them', async () => {
    const toolId = await makeTool(store, admin);
    expect(await bumps(() => store.request('GET', '/api/tools'))).toBe(false);
    expect(await bumps(() => store.request('GET', `/api/tools/${toolId}`))).toBe(false);
    expect(await bumps(() => store.request('GET', '/api/reviews?limit=5&pageNumber=0'))).toBe(false);
    expect(
      await bumps(() => store.request('PUT', `/api/tool/update/${toolId}`, { token: alice, json: { availableQuantity: 1 } })),
    ).toBe(false);
  });
});
