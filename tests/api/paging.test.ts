// Issue 15: the dashboard lists page on the server. With limit or cursor, GET /allusers, /tools,
// /booking and /booking/email/{email} answer {items, total, nextCursor}: keyset pages in the list's
// order (no row skipped or repeated across inserts and deletes), at most 100 rows, bad parameters 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError, makeTool, placeOrder } from './helpers';

let runtime: TestRuntime;
let admin: string;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
});
afterAll(() => runtime.close());

interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
}

const get = (url: string) => runtime.request('GET', url, { token: admin });

/** Every page of a list, following nextCursor from the first. */
async function walk<T>(path: string, limit: number): Promise<{ pages: Page<T>[]; rows: T[] }> {
  const pages: Page<T>[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(`${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    pages.push(res.data);
    cursor = res.data.nextCursor;
  } while (cursor && pages.length < 1000);
  return { pages, rows: pages.flatMap((p) => p.items) };
}

/** The cursor as a client could forge it (base64url JSON). */
const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('GET /allusers paged', () => {
  beforeAll(async () => {
    // 130 users; ten share one sign-up instant and six more differ from it by microseconds only (a
    // JavaScript Date could not tell them apart), so the page boundaries fall inside ties.
    await runtime.db.query(
      `INSERT INTO users (email, name, sign_up_date)
       SELECT 'pager' || lpad(g::text, 3, '0') || '@test.example', 'Pager ' || g,
              CASE WHEN g <= 10 THEN timestamptz '2024-05-01 10:00:00.123456+00'
                   WHEN g <= 16 THEN timestamptz '2024-05-01 10:00:00.123456+00' + (g - 10) * interval '1 microsecond'
                   ELSE timestamptz '2024-01-01 00:00:00+00' + g * interval '1 hour' END
       FROM generate_series(1, 130) AS g`,
    );
  });

  it("without paging parameters: the spec's plain array of every user", async () => {
    const res = await get('/api/allusers');
    expect(Array.isArray(res.data)).toBe(true);
    expect(res.data.length).toBeGreaterThanOrEqual(131);
  });

  it("pages cover the whole list once, in the plain list's order, each with the total", async () => {
    const all = (await get('/api/allusers')).data as { email: string }[];
    const { pages, rows } = await walk<{ email: string; signUpDate: string; role: string }>('/api/allusers', 7);
    expect(rows.map((u) => u.email)).toEqual(all.map((u) => u.email));
    expect(rows).toEqual(all);
    expect(pages.every((p) => p.total === all.length)).toBe(true);
    expect(pages.slice(0, -1).every((p) => p.items.length === 7)).toBe(true);
    expect(pages.at(-1)!.nextCursor).toBeNull();
  });

  it('a page after new sign-ups and a deletion continues where the last one ended', async () => {
    const first = (await get('/api/allusers?limit=20')).data as Page<{ email: string }>;
    const all = ((await get('/api/allusers')).data as { email: string }[]).map((u) => u.email);
    const seen = first.items.map((u) => u.email);
    // A newer user (goes before the cursor) and one deleted from the page already shown.
    await runtime.db.query(`INSERT INTO users (email, name) VALUES ('newcomer@test.example', 'Newcomer')`);
    await runtime.db.query('DELETE FROM users WHERE email = $1', [seen[5]]);
    const next = (await get(`/api/allusers?limit=20&cursor=${first.nextCursor}`)).data as Page<{ email: string }>;
    expect(next.items.map((u) => u.email)).toEqual(all.slice(20, 40));
    expect(next.total).toBe(all.length);
  });

  it('at most 100 rows a page; bad limits and cursors are 400 with the JSON error', async () => {
    const res = await get('/api/allusers?limit=100');
    expect(res.data.items).toHaveLength(100);
    for (const query of [
      'limit=101',
      'limit=0',
      'limit=-1',
      'limit=abc',
      'limit=2.5',
      'cursor=%25%25',
      'cursor=' + 'a'.repeat(601),
    ]) {
      expectApiError(await get(`/api/allusers?${query}`), 400);
    }
    // Well-formed base64url that is not one of our keys.
    for (const key of [[], 'x', [1, 'a@b.c'], ['12', ''], ['1'.repeat(17), 'a@b.c'], ['12', 'a@b.c', 3], { a: 1 }]) {
      expectApiError(await get(`/api/allusers?cursor=${forged(key)}`), 400);
    }
    expectApiError(await get(`/api/allusers?cursor=bm90IGpzb24`), 400);
    // A cursor alone asks for the default page size.
    const deep = (await get(`/api/allusers?cursor=${forged(['0', 'a@b.c'])}`)).data as Page<unknown>;
    expect(deep.items).toEqual([]);
    expect(deep.nextCursor).toBeNull();
  });
});

describe("GET /tools paged (the admin's product list)", () => {
  beforeAll(async () => {
    await runtime.db.query(
      `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
       SELECT lpad(to_hex(g + 4096), 24, '0'), 'Pager tool ' || g, 'A tool to fill pages.', '/images/tools/hammer.webp', 1000 + g, 1, 10
       FROM generate_series(1, 75) AS g`,
    );
    runtime.tools.invalidate('tools');
  });

  it('without paging parameters: the whole catalogue, as the storefront reads it', async () => {
    const res = await runtime.request('GET', '/api/tools');
    expect(Array.isArray(res.data)).toBe(true);
    expect(res.data.length).toBeGreaterThanOrEqual(75);
  });

  it('pages cover the catalogue once, newest first, each with the total; a new tool does not shift the next page', async () => {
    const all = (await runtime.request('GET', '/api/tools')).data as { _id: string }[];
    const { pages, rows } = await walk<{ _id: string }>('/api/tools', 10);
    // An admin's page adds the low-stock fields to each tool.
    expect(rows).toEqual(all.map((t) => expect.objectContaining(t)));
    expect(pages.every((p) => p.total === all.length)).toBe(true);

    const first = (await get('/api/tools?limit=10')).data as Page<{ _id: string }>;
    await runtime.db.query(
      `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
       VALUES (lpad(to_hex(99999), 24, '0'), 'Brand new', 'Newest.', '/images/tools/hammer.webp', 500, 1, 1)`,
    );
    const next = (await get(`/api/tools?limit=10&cursor=${first.nextCursor}`)).data as Page<{ _id: string }>;
    expect(next.items.map((t) => t._id)).toEqual(all.slice(10, 20).map((t) => t._id));
    expect(next.total).toBe(all.length + 1);
  });

  it('bad limits and cursors are 400', async () => {
    for (const query of [
      'limit=101',
      'limit=0',
      'limit=x',
      `cursor=${forged('7')}`,
      `cursor=${forged(-1)}`,
      `cursor=${forged(1.5)}`,
      'cursor=!!',
    ]) {
      expectApiError(await runtime.request('GET', `/api/tools?${query}`), 400);
    }
  });
});

describe('GET /booking and GET /booking/email/{email} paged', () => {
  const BUYER = 'pagebuyer@test.example';
  let buyer: string;
  let toolId: string;

  beforeAll(async () => {
    buyer = await runtime.tokenFor(BUYER);
    toolId = (await makeTool(runtime, admin, { availableQuantity: 10_000 })) as string;
    // 23 orders of the buyer's through the API, among 40 of other shoppers written directly.
    for (let i = 0; i < 23; i++) await placeOrder(runtime, buyer, toolId);
    await runtime.db.query(
      `INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, user_name, email, address, phone, expires_at, total_cents)
       SELECT 'ab' || lpad(to_hex(g), 22, '0'), NULL, 'Old hammer', 1000, 1, 'Someone', 'someone' || g || '@test.example', 'Somewhere', '01712345678',
              now() + interval '1 day', 1000
       FROM generate_series(1, 40) AS g`,
    );
  });

  it("the admin's pages cover every order once, newest first, each with the total", async () => {
    const all = (await get('/api/booking')).data as { _id: string }[];
    expect(all.length).toBeGreaterThanOrEqual(63);
    const { pages, rows } = await walk<{ _id: string }>('/api/booking', 10);
    expect(rows).toEqual(all);
    expect(pages.every((p) => p.total === all.length)).toBe(true);
  });

  it('the kept total follows orders placed and deleted, in the API and directly', async () => {
    const total = async () => ((await get('/api/booking?limit=1')).data as Page<unknown>).total;
    const counted = async () => (await runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders'))[0].n;
    expect(await total()).toBe(await counted());
    const id = await placeOrder(runtime, buyer, toolId);
    expect(await total()).toBe(await counted());
    expect((await runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: buyer })).status).toBe(200);
    await runtime.db.query(`DELETE FROM orders WHERE id = 'ab' || lpad(to_hex(1), 22, '0')`);
    expect(await total()).toBe(await counted());
  });

  it("a buyer's pages hold only their orders, with their total; a new order does not shift the next page", async () => {
    const path = `/api/booking/email/${BUYER}`;
    const mine = (await runtime.request('GET', path, { token: buyer })).data as { _id: string; email: string }[];
    expect(mine).toHaveLength(23);
    const first = (await runtime.request('GET', `${path}?limit=10`, { token: buyer })).data as Page<{
      _id: string;
      email: string;
    }>;
    expect(first.total).toBe(23);
    expect(first.items).toEqual(mine.slice(0, 10));
    await placeOrder(runtime, buyer, toolId);
    const second = (await runtime.request('GET', `${path}?limit=10&cursor=${first.nextCursor}`, { token: buyer }))
      .data as Page<{ _id: string }>;
    expect(second.items).toEqual(mine.slice(10, 20));
    expect(second.total).toBe(24);
    const third = (await runtime.request('GET', `${path}?limit=10&cursor=${second.nextCursor}`, { token: buyer }))
      .data as Page<{ _id: string }>;
    expect(third.items).toEqual(mine.slice(20));
    expect(third.nextCursor).toBeNull();
    // The admin reads the same list.
    expect(((await get(`${path}?limit=100`)).data as Page<unknown>).total).toBe(24);
  });

  it("a buyer's pages leave out orders an earlier account placed under the same email; the admin's include them", async () => {
    const path = `/api/booking/email/${BUYER}`;
    await runtime.db.query(
      `INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, user_name, email, address, phone, expires_at, total_cents, buyer_uid)
       VALUES ('cd' || lpad('1', 22, '0'), NULL, 'Earlier hammer', 1000, 1, 'Earlier', $1, 'Somewhere', '01712345678', now() + interval '1 day', 1000, 'an-earlier-account')`,
      [BUYER],
    );
    const mine = (await runtime.request('GET', `${path}?limit=100`, { token: buyer })).data as Page<{ _id: string }>;
    const theirs = (await get(`${path}?limit=100`)).data as Page<{ _id: string }>;
    expect(mine.items.map((o) => o._id)).not.toContain('cd' + '1'.padStart(22, '0'));
    expect(theirs.items.map((o) => o._id)).toContain('cd' + '1'.padStart(22, '0'));
    expect(theirs.total).toBe(mine.total + 1);
  });

  it('bad limits and cursors are 400', async () => {
    for (const url of ['/api/booking', `/api/booking/email/${BUYER}`]) {
      for (const query of [
        'limit=101',
        'limit=0',
        'limit=x',
        `cursor=${forged('7')}`,
        `cursor=${forged(-1)}`,
        'cursor=!!',
      ]) {
        expectApiError(await get(`${url}?${query}`), 400);
      }
    }
  });
});
