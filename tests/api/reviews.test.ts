// Reviews beyond the spec's list: no reviewer's email in any anonymous answer, a per-user posting
// limit, and admin moderation (hide/unhide) with the public paging math unchanged over what is visible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, BOB, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError } from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let bob: string;
const EMAIL = /[^\s"@]+@[^\s"@]+\.[a-z]{2,}/i;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { REVIEW_RATE_LIMIT: '3' } });
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  bob = await runtime.tokenFor(BOB);
});
afterAll(() => runtime.close());

const post = (token: string, Messege: string) =>
  runtime.request('POST', '/api/review', { token, json: { name: 'Rev', Messege, ratings: 4 } });
const publicPage = async (limit: number, pageNumber: number) =>
  (await runtime.request('GET', `/api/reviews?limit=${limit}&pageNumber=${pageNumber}`)).data as {
    services: { _id: string }[];
    count: number;
  };
const hide = (id: string, hidden: boolean, token = admin) =>
  runtime.request('PUT', `/api/reviews/hide/${id}`, { token, json: { hidden } });

/** Every visible review, newest first, as the moderation list sees the whole table. */
async function visibleIds(): Promise<string[]> {
  const all = (await runtime.request('GET', '/api/reviews/moderation?limit=100&pageNumber=0', { token: admin })).data;
  return all.services.filter((r: { hidden: boolean }) => !r.hidden).map((r: { _id: string }) => r._id);
}

describe('privacy', () => {
  it('no anonymous page of reviews carries an email address, at any size', async () => {
    await post(alice, 'No email of mine on the home page.');
    const { count } = await publicPage(5, 0);
    expect(count).toBeGreaterThan(0);
    for (const limit of [1, 2, 5, 10, 20, 100]) {
      for (let p = 0; p <= Math.ceil(count / limit); p++) {
        const res = await runtime.request('GET', `/api/reviews?limit=${limit}&pageNumber=${p}`);
        expect(res.status).toBe(200);
        const body = JSON.stringify(res.data);
        expect(body).not.toMatch(EMAIL);
        expect(body).not.toContain('addedBy');
      }
    }
  });
});

describe('POST /review is limited per user', () => {
  it('refuses the user past REVIEW_RATE_LIMIT an hour with a 429 and writes nothing; other users still post', async () => {
    const fresh = await createTestRuntime({ env: { REVIEW_RATE_LIMIT: '2' } });
    try {
      const token = await fresh.tokenFor(ALICE);
      const send = (t: string, ip: string) =>
        fresh.request('POST', '/api/review', {
          token: t,
          json: { name: 'Spam', Messege: 'Buy now', ratings: 5 },
          headers: { 'x-test-ip': ip },
        });
      expect((await send(token, 'a')).status).toBe(201);
      expect((await send(token, 'b')).status).toBe(201);
      const refused = await send(token, 'c');
      expectApiError(refused, 429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await send(await fresh.tokenFor(BOB), 'a')).status).toBe(201);
      const [{ n }] = await fresh.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM reviews WHERE message = 'Buy now'",
      );
      expect(n).toBe(3);
    } finally {
      await fresh.close();
    }
  });
});

describe('moderation', () => {
  it('the moderation list has every review with addedBy and hidden, newest first, paged', async () => {
    const id = (await post(bob, 'Moderation list entry')).data.insertedId;
    const res = await runtime.request('GET', '/api/reviews/moderation?limit=2&pageNumber=0', { token: admin });
    expect(res.status).toBe(200);
    expect(res.data.services[0]).toEqual({
      _id: id,
      name: 'Rev',
      Messege: 'Moderation list entry',
      ratings: 4,
      addedBy: BOB,
      hidden: false,
    });
    expect(res.data.services).toHaveLength(2);
    const total = (await runtime.request('GET', '/api/reviews/moderation?limit=100&pageNumber=0', { token: admin }))
      .data;
    expect(total.count).toBe(total.services.length);
    const page1 = (await runtime.request('GET', '/api/reviews/moderation?limit=2&pageNumber=1', { token: admin })).data;
    expect(page1.services).toEqual(total.services.slice(2, 4));
  });

  it('a hidden review leaves the public count and pages; the pages stay ceil(visible/limit), newest first; unhiding brings it back', async () => {
    // Enough reviews that hidden ones fall on the first page, the middle and the oldest end.
    for (let i = 0; i < 9; i++)
      await runtime.db.query(
        "INSERT INTO reviews (id, name, message, ratings, added_by) VALUES ($1, 'Filler', $2, 3, 'filler@test.example')",
        [`${'f'.repeat(22)}${String(i).padStart(2, '0')}`, `Filler ${i}`],
      );
    const before = await visibleIds();
    const toHide = [before[0], before[3], before[4], before[before.length - 1]];
    for (const id of toHide)
      expect(await hide(id, true)).toMatchObject({ status: 200, data: { acknowledged: true, modifiedCount: 1 } });
    const visible = before.filter((id) => !toHide.includes(id));
    expect(await visibleIds()).toEqual(visible);

    for (const limit of [1, 2, 3, 5, 100]) {
      const pages = Math.ceil(visible.length / limit);
      for (let p = 0; p <= pages; p++) {
        const page = await publicPage(limit, p);
        expect(page.count).toBe(visible.length);
        expect(
          page.services.map((r) => r._id),
          `limit ${limit} page ${p}`,
        ).toEqual(visible.slice(p * limit, p * limit + limit));
      }
    }

    expect((await hide(toHide[1], false)).status).toBe(200);
    const back = before.filter((id) => id !== toHide[0] && id !== toHide[2] && id !== toHide[3]);
    expect((await publicPage(100, 0)).services.map((r) => r._id)).toEqual(back);
    expect((await publicPage(2, 1)).services.map((r) => r._id)).toEqual(back.slice(2, 4));
    for (const id of toHide) await hide(id, false);
    expect((await publicPage(100, 0)).count).toBe(before.length);
  });

  it('hiding an unknown review is a 404; only admins may moderate', async () => {
    expectApiError(await hide('0'.repeat(24), true), 404);
    const id = (await runtime.request('GET', '/api/reviews?limit=1&pageNumber=0')).data.services[0]._id;
    expectApiError(await hide(id, true, alice), 403);
    expectApiError(await runtime.request('GET', '/api/reviews/moderation', { token: alice }), 403);
  });
});
