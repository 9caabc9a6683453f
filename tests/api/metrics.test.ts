// Orders placed, paid and cancelled are counted in /metrics (src/server/metrics.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsText } from '../../src/server/metrics';
import { ADMIN, ALICE, createTestStore, type TestStore } from './harness';
import { makeTool, payOrder, placeOrder } from './helpers';

let store: TestStore;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(() => store.close());

const count = async (event: string) =>
  Number(new RegExp(`orders_total\\{event="${event}"\\} (\\d+)`).exec(await metricsText())?.[1]);

describe('order metrics', () => {
  it('counts an order placed, paid, and one whose hold ran out', async () => {
    const admin = await store.tokenFor(ADMIN);
    const alice = await store.tokenFor(ALICE);
    const toolId = await makeTool(store, admin);
    const before = { placed: await count('placed'), paid: await count('paid'), cancelled: await count('cancelled') };
    await payOrder(store, alice, await placeOrder(store, alice, toolId));
    await placeOrder(store, alice, toolId);
    store.advance(store.deps.config.orderHoldMs + 1000);
    await store.checkout.expireHolds();
    expect(await count('placed')).toBe(before.placed + 2);
    expect(await count('paid')).toBe(before.paid + 1);
    expect(await count('cancelled')).toBe(before.cancelled + 1);
  });
});
