// Orders placed, paid and cancelled are counted in /metrics (src/server/observability/metrics.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsText } from '../../src/server/observability/metrics';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { makeTool, payOrder, placeOrder } from './helpers';

let runtime: TestRuntime;
beforeAll(async () => {
  runtime = await createTestRuntime();
});
afterAll(() => runtime.close());

const count = async (event: string) =>
  Number(new RegExp(`orders_total\\{event="${event}"\\} (\\d+)`).exec(await metricsText())?.[1]);

describe('order metrics', () => {
  it('counts an order placed, paid, and one whose hold ran out', async () => {
    const admin = await runtime.tokenFor(ADMIN);
    const alice = await runtime.tokenFor(ALICE);
    const toolId = await makeTool(runtime, admin);
    const before = { placed: await count('placed'), paid: await count('paid'), cancelled: await count('cancelled') };
    await payOrder(runtime, alice, await placeOrder(runtime, alice, toolId));
    await placeOrder(runtime, alice, toolId);
    runtime.advance(runtime.deps.config.orderHoldMs + 1000);
    await runtime.checkout.expireHolds();
    expect(await count('placed')).toBe(before.placed + 2);
    expect(await count('paid')).toBe(before.paid + 1);
    expect(await count('cancelled')).toBe(before.cancelled + 1);
  });
});
