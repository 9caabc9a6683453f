// Issue 24: Manage All Orders finds orders by email, name or id, filters them by payment and shipping
// state and by date, sorts them by date or total, and pages through any of these views without
// repeating or skipping an order. All Users finds users by email. Admin only; bad queries are 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError, makeTool, payOrder, placeOrder } from './helpers';

let runtime: TestRuntime;
let admin: string;
let ann: string;
let bob: string;
const ids: Record<string, string> = {};

interface Page {
  items: {
    _id: string;
    email: string;
    userName: string;
    payment: string;
    shippingStatus: string;
    totalCents: number;
    createdAt: string;
  }[];
  total: number;
  nextCursor: string | null;
}

const get = (url: string, token = admin) => runtime.request('GET', url, { token });

async function view(query: string): Promise<Page> {
  const res = await get(`/api/booking?${query}`);
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return res.data;
}

/** Every order of a view, page by page. */
async function walk(query: string, limit: number): Promise<Page['items']> {
  const rows: Page['items'] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 100; n++) {
    const page: Page = await view(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    rows.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return rows;
}

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  ann = await runtime.tokenFor('ann.smith@list.test', 'Ann Smith');
  bob = await runtime.tokenFor('bob_jones@list.test', 'Bob Jones');
  const tool = await makeTool(runtime, admin, { price: 10, minimumOrderQuantity: 1, availableQuantity: 1000 });
  // Ann: 3 orders (1 paid and shipped, 1 paid, 1 unpaid); Bob: 2 unpaid, different totals.
  ids.annShipped = await placeOrder(runtime, ann, tool, 5);
  ids.annPaid = await placeOrder(runtime, ann, tool, 7);
  ids.annUnpaid = await placeOrder(runtime, ann, tool, 2);
  ids.bobSmall = await placeOrder(runtime, bob, tool, 1);
  ids.bobBig = await placeOrder(runtime, bob, tool, 30);
  await payOrder(runtime, ann, ids.annShipped);
  await payOrder(runtime, ann, ids.annPaid);
  expect((await runtime.request('PUT', `/api/booking/ship/${ids.annShipped}`, { token: admin })).status).toBe(200);
  // One old order, placed last year.
  await runtime.db.query(`UPDATE orders SET created_at = now() - interval '400 days' WHERE id = $1`, [ids.bobSmall]);
});
afterAll(() => runtime.close());

describe('GET /api/booking: search, filters, date range and sort (admin)', () => {
  it("without a query it is still the spec's array of every order", async () => {
    const res = await get('/api/booking');
    expect(Array.isArray(res.data)).toBe(true);
    expect(res.data).toHaveLength(5);
  });

  it('finds by part of the email, by part of the name (any case) and by the whole order id', async () => {
    expect((await view('q=ann.smith')).items.map((o) => o._id).sort()).toEqual(
      [ids.annShipped, ids.annPaid, ids.annUnpaid].sort(),
    );
    expect((await view('q=BOB%20jon')).total).toBe(2);
    const byId = await view(`q=${ids.bobBig}`);
    expect(byId.items.map((o) => o._id)).toEqual([ids.bobBig]);
    // LIKE's wildcards are matched as themselves: '_' finds only Bob's email, '%' nothing.
    expect((await view('q=_')).items.every((o) => o.email.includes('_'))).toBe(true);
    expect((await view('q=%25')).total).toBe(0);
  });

  it('filters by payment and by shipping state, with the count of what matches', async () => {
    const unpaid = await view('payment=unpaid');
    expect(unpaid.total).toBe(3);
    expect(unpaid.items.every((o) => o.payment === 'unpaid')).toBe(true);
    const pending = await view('shipping=pending');
    expect(pending.items.map((o) => o._id)).toEqual([ids.annPaid]);
    const shipped = await view('shipping=shipped&q=ann');
    expect(shipped.items.map((o) => o._id)).toEqual([ids.annShipped]);
  });

  it('keeps a date range, both days included (UTC)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await view(`from=${today}&to=${today}`)).total).toBe(4);
    const lastYear = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
    expect((await view(`from=${lastYear}&to=${lastYear}`)).items.map((o) => o._id)).toEqual([ids.bobSmall]);
    expect((await view(`to=${lastYear}`)).total).toBe(1);
  });

  it('sorts by date and by total, either way, and pages each sort without repeating or skipping', async () => {
    const newest = await walk('sort=newest', 2);
    expect(newest.map((o) => o._id)).toEqual([ids.bobBig, ids.bobSmall, ids.annUnpaid, ids.annPaid, ids.annShipped]);
    expect((await walk('sort=oldest', 2)).map((o) => o._id)).toEqual([...newest].reverse().map((o) => o._id));
    const byTotal = await walk('sort=total-desc', 2);
    expect(byTotal.map((o) => o.totalCents)).toEqual([30_000, 7_000, 5_000, 2_000, 1_000]);
    const ascending = await walk('sort=total-asc&q=list.test', 3);
    expect(ascending.map((o) => o._id)).toEqual(byTotal.map((o) => o._id).reverse());
  });

  it('refuses bad queries with 400 and a message naming the field', async () => {
    for (const query of [
      'payment=refunded',
      'shipping=lost',
      'sort=price',
      'from=2024-02-30',
      'from=yesterday',
      'from=2025-02-01&to=2025-01-01',
      `q=${'x'.repeat(201)}`,
    ]) {
      const res = await get(`/api/booking?${query}`);
      expectApiError(res, 400);
    }
    // A cursor from one sort is not a cursor of another.
    const page = await view('sort=total-desc&limit=1');
    expectApiError(await get(`/api/booking?sort=newest&limit=1&cursor=${page.nextCursor}`), 400);
  });

  it('is for admins only: a buyer gets 403, nobody signed in 401', async () => {
    expect((await get('/api/booking?q=ann', ann)).status).toBe(403);
    expect((await runtime.request('GET', '/api/booking?payment=paid')).status).toBe(401);
  });
});

describe('GET /api/allusers?q=: search by email (admin)', () => {
  it('finds users whose email contains the text, in any case, paged, with how many match', async () => {
    const res = await get('/api/allusers?q=LIST.TEST&limit=1');
    expect(res.status).toBe(200);
    expect(res.data.total).toBe(2);
    expect(res.data.items).toHaveLength(1);
    const next = await get(`/api/allusers?q=list.test&limit=1&cursor=${res.data.nextCursor}`);
    expect([res.data.items[0].email, next.data.items[0].email].sort()).toEqual([
      'ann.smith@list.test',
      'bob_jones@list.test',
    ]);
    expect(next.data.nextCursor).toBeNull();
    expect((await get('/api/allusers?q=nobody-here')).data).toEqual({ items: [], total: 0, nextCursor: null });
  });

  it('is for admins only, and a search too long is 400', async () => {
    expect((await get('/api/allusers?q=ann', ann)).status).toBe(403);
    expectApiError(await get(`/api/allusers?q=${'a'.repeat(201)}`), 400);
  });
});
