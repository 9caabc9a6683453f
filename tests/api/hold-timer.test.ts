// Issue 25: holds end on time with nobody reading. The store's hold timer (store.ts) wakes when the next
// unpaid order's hold runs out and lets it go (checkout flow): the order cancelled, its units back, its
// event written, without any request.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Runtime } from '../../src/server/runtime';
import { openTestRuntime } from './harness';

let runtime: Runtime;
let opened: Awaited<ReturnType<typeof openTestRuntime>> | undefined;
const TOOL = 'aaaaaaaaaaaaaaaaaaaaaaaa';

beforeAll(async () => {
  // Two seconds to pay.
  opened = await openTestRuntime({ ORDER_HOLD_MINUTES: String(2 / 60) });
  runtime = opened.runtime;
  await runtime.db.query(
    `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
     VALUES ($1, 'Timer Hammer', 'For the hold timer.', '/images/tools/rubber-mallet.svg', 1000, 1, 10)`,
    [TOOL],
  );
}, 60_000);
afterAll(async () => {
  await opened?.close();
});

/** Places a held order of `quantity` units of the timer's tool for a buyer of its own. */
const place = (name: string, quantity: number) =>
  runtime.checkout.placeOne(
    { email: `${name}@test.example`, name, role: 'user', uid: `uid-${name}` },
    { toolId: TOOL, quantity, address: '1 Clock Lane', phone: '01712345678' },
  );

const state = async (id: string) =>
  (
    await runtime.db.query<{ payment: string; stock: number }>(
      `SELECT o.payment, t.available_quantity AS stock FROM orders o, tools t WHERE o.id = $1 AND t.id = $2`,
      [id, TOOL],
    )
  )[0];

/** Waits (up to 8 s) while the order is unpaid; returns how long that took. */
async function whileUnpaid(id: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 8000 && (await state(id)).payment === 'unpaid')
    await new Promise((r) => setTimeout(r, 100));
  return Date.now() - started;
}

it('an unpaid order is cancelled when its hold ends, with no read asking, and its units come back', async () => {
  const id = await place('tim', 4);
  expect(await state(id)).toEqual({ payment: 'unpaid', stock: 6 });
  const waited = await whileUnpaid(id);
  expect(await state(id)).toEqual({ payment: 'cancelled', stock: 10 });
  // On time: the hold was 2 s; the timer wakes at its end (not at the next 30-second round).
  expect(waited).toBeLessThan(5000);
  const [event] = await runtime.db.query<{ type: string; actor: string | null }>(
    `SELECT type, actor FROM events WHERE subject = $1 AND type = 'order.cancelled'`,
    [id],
  );
  expect(event).toEqual({ type: 'order.cancelled', actor: null });
});

it('an order placed while the timer sleeps with no hold in sight still ends on time', async () => {
  // The timer has looked and found no unpaid order (its first look is 1 s after the start; the test above's
  // order is gone): before, it then slept for SWEEP_MS (30 s) whatever the hold, so a 2-second hold placed
  // meanwhile ended up to 30 s late.
  await new Promise((r) => setTimeout(r, 1500));
  const id = await place('sam', 3);
  const waited = await whileUnpaid(id);
  expect((await state(id)).payment).toBe('cancelled');
  expect(waited).toBeLessThan(5000);
});
