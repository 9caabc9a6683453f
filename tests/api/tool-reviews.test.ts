// Reviews of one tool (issue 24): only a buyer with a paid order for it may post one, once, and it is
// marked verified by the server; the tool's public page of reviews (count, average, keyset pages) never
// shows hidden reviews or a reviewer's email; the spec's general reviews work as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolReviewsPage } from '../../src/lib/entities';
import { messages } from '../../src/lib/messages';
import type { PublicAnswer } from '../../src/server/types';
import { ADMIN, ALICE, BOB, createTestRuntime, idTokenFor, type TestRuntime } from './harness';
import { expectApiError, makeTool, payOrder, placeOrder, snapshot } from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let bob: string;
const EMAIL = /[^\s"@]+@[^\s"@]+\.[a-z]{2,}/i;
let serial = 0;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { REVIEW_RATE_LIMIT: '1000' } });
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  bob = await runtime.tokenFor(BOB);
});
afterAll(() => runtime.close());

const review = (toolId: string, over: Record<string, unknown> = {}) => ({
  name: 'Builder',
  Messege: `Held up on site, review ${++serial}.`,
  ratings: 4.5,
  toolId,
  ...over,
});
const post = (token: string, body: Record<string, unknown>) =>
  runtime.request('POST', '/api/review', { token, json: body });
const page = async (toolId: string, query = '') => {
  const res = await runtime.request('GET', `/api/tools/${toolId}/reviews${query}`);
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return res.data as ToolReviewsPage;
};
const eligibility = (toolId: string, token: string | null) =>
  runtime.request('GET', `/api/tools/${toolId}/reviews/eligibility`, { token });

/** A user with a fresh token (a new emulator account), for tests that need many buyers. */
async function newBuyer(toolId: string | null): Promise<string> {
  const token = await runtime.tokenFor(`buyer-${Date.now().toString(36)}-${++serial}@test.example`);
  if (toolId) await payOrder(runtime, token, await placeOrder(runtime, token, toolId));
  return token;
}

describe('who may review a tool', () => {
  it('someone without an order for it: 403 with the reason, nothing written', async () => {
    const toolId = await makeTool(runtime, admin);
    const before = await snapshot(runtime);
    const res = await post(bob, review(toolId));
    expectApiError(res, 403);
    expect(res.data.error.message).toBe(messages.reviewBuyersOnly);
    expect(await snapshot(runtime)).toEqual(before);
    expect((await eligibility(toolId, bob)).data).toEqual({ canReview: false, reason: 'notBuyer' });
  });

  it('a buyer whose order is unpaid: 403; a paid order of another tool does not count', async () => {
    const toolId = await makeTool(runtime, admin);
    const other = await makeTool(runtime, admin);
    const buyer = await newBuyer(other);
    await placeOrder(runtime, buyer, toolId, 2);
    const before = await snapshot(runtime);
    expectApiError(await post(buyer, review(toolId)), 403);
    expect(await snapshot(runtime)).toEqual(before);
    expect((await eligibility(toolId, buyer)).data).toEqual({ canReview: false, reason: 'notBuyer' });
  });

  it('a buyer with a paid order: 201, verified by the server, first on the tool page; a second review is a 409', async () => {
    const toolId = await makeTool(runtime, admin);
    const buyer = await newBuyer(toolId);
    expect((await eligibility(toolId, buyer)).data).toEqual({ canReview: true, reason: null });
    const res = await post(buyer, review(toolId, { name: 'Rahim', Messege: 'Perfect balance.', ratings: 4.75 }));
    expect(res).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: expect.any(String) } });
    const [row] = await runtime.db.query<{ tool_id: string; verified: boolean }>(
      'SELECT tool_id, verified FROM reviews WHERE id = $1',
      [res.data.insertedId],
    );
    expect(row).toEqual({ tool_id: toolId, verified: true });
    const first = await page(toolId);
    expect(first).toMatchObject({ count: 1, average: 4.75, nextCursor: null });
    expect(first.services).toEqual([
      {
        _id: res.data.insertedId,
        name: 'Rahim',
        Messege: 'Perfect balance.',
        ratings: 4.75,
        verified: true,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    const before = await snapshot(runtime);
    const again = await post(buyer, review(toolId));
    expectApiError(again, 409);
    expect(again.data.error.message).toBe(messages.reviewAlreadyPosted);
    expect(await snapshot(runtime)).toEqual(before);
    expect((await eligibility(toolId, buyer)).data).toEqual({ canReview: false, reason: 'reviewed' });
  });

  it('two reviews of one tool sent at once by one buyer make one review', async () => {
    const toolId = await makeTool(runtime, admin);
    const buyer = await newBuyer(toolId);
    const results = await Promise.all([1, 2, 3].map(() => post(buyer, review(toolId))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await page(toolId)).count).toBe(1);
  });

  it('a hidden review still counts as the buyer’s one review', async () => {
    const toolId = await makeTool(runtime, admin);
    const buyer = await newBuyer(toolId);
    const id = (await post(buyer, review(toolId))).data.insertedId;
    await runtime.request('PUT', `/api/reviews/hide/${id}`, { token: admin, json: { hidden: true } });
    expectApiError(await post(buyer, review(toolId)), 409);
  });

  it('an unknown tool is a 404; the client cannot make a review verified', async () => {
    expectApiError(await post(alice, review('0'.repeat(24))), 404);
    expectApiError(await eligibility('0'.repeat(24), alice), 404);
    const general = await post(alice, { name: 'Alice', Messege: 'General review.', ratings: 5, verified: true });
    expect(general.status).toBe(201);
    const [row] = await runtime.db.query<{ tool_id: string | null; verified: boolean }>(
      'SELECT tool_id, verified FROM reviews WHERE id = $1',
      [general.data.insertedId],
    );
    expect(row).toEqual({ tool_id: null, verified: false });
  });

  it('asking whether one may review needs a session', async () => {
    const toolId = await makeTool(runtime, admin);
    expectApiError(await eligibility(toolId, null), 401);
  });
});

describe("a tool's page of reviews", () => {
  it('count and average of the visible reviews only, newest first; hiding and showing again move them', async () => {
    const toolId = await makeTool(runtime, admin);
    const ids: string[] = [];
    for (const ratings of [5, 4, 3.5])
      ids.push((await post(await newBuyer(toolId), review(toolId, { ratings }))).data.insertedId);
    let first = await page(toolId);
    expect(first).toMatchObject({ count: 3, average: 4.17 });
    expect(first.services.map((r) => r._id)).toEqual([...ids].reverse());

    await runtime.request('PUT', `/api/reviews/hide/${ids[0]}`, { token: admin, json: { hidden: true } });
    first = await page(toolId);
    expect(first).toMatchObject({ count: 2, average: 3.75 });
    expect(first.services.map((r) => r._id)).toEqual([ids[2], ids[1]]);

    await runtime.request('PUT', `/api/reviews/hide/${ids[0]}`, { token: admin, json: { hidden: false } });
    expect(await page(toolId)).toMatchObject({ count: 3, average: 4.17 });
  });

  it('a tool without reviews: an empty page, count 0, no average', async () => {
    const toolId = await makeTool(runtime, admin);
    expect(await page(toolId)).toEqual({ services: [], count: 0, average: null, nextCursor: null });
  });

  it('keyset pages: every visible review once, whatever is posted or hidden between pages', async () => {
    const toolId = await makeTool(runtime, admin);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await post(await newBuyer(toolId), review(toolId))).data.insertedId);
    const newestFirst = [...ids].reverse();
    const p0 = await page(toolId, '?limit=3');
    expect(p0.services.map((r) => r._id)).toEqual(newestFirst.slice(0, 3));
    // A new review and a hidden one between pages: the next page starts where the last one ended.
    await post(await newBuyer(toolId), review(toolId));
    await runtime.request('PUT', `/api/reviews/hide/${newestFirst[4]}`, { token: admin, json: { hidden: true } });
    const p1 = await page(toolId, `?limit=3&cursor=${p0.nextCursor}`);
    expect(p1.services.map((r) => r._id)).toEqual([newestFirst[3], newestFirst[5], newestFirst[6]]);
    expect(p1.count).toBe(7);
    expect(p1.nextCursor).toBeNull();
    // The default page size.
    expect((await page(toolId)).services).toHaveLength(5);
  });

  it('shows only this tool’s reviews; the spec’s general list shows them too, with the spec’s fields only', async () => {
    const toolA = await makeTool(runtime, admin);
    const toolB = await makeTool(runtime, admin);
    const a = (await post(await newBuyer(toolA), review(toolA, { Messege: 'Only on A.' }))).data.insertedId;
    expect((await page(toolB)).services.map((r) => r._id)).not.toContain(a);
    const general = (await runtime.request('GET', '/api/reviews?limit=5&pageNumber=0')).data;
    expect(general.services[0]).toEqual({ _id: a, name: 'Builder', Messege: 'Only on A.', ratings: 4.5 });
  });

  it('carries no reviewer email, at any page size', async () => {
    const toolId = await makeTool(runtime, admin);
    for (let i = 0; i < 3; i++) await post(await newBuyer(toolId), review(toolId));
    for (const limit of [1, 2, 20]) {
      let cursor: string | null = '';
      while (cursor !== null) {
        const res = await runtime.request(
          'GET',
          `/api/tools/${toolId}/reviews?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        const body = JSON.stringify(res.data);
        expect(body).not.toMatch(EMAIL);
        expect(body).not.toContain('addedBy');
        cursor = res.data.nextCursor;
      }
    }
  });

  it('a deleted tool has no page of reviews; its reviews stay in the general list', async () => {
    const toolId = await makeTool(runtime, admin);
    const id = (await post(await newBuyer(toolId), review(toolId))).data.insertedId;
    expect((await runtime.request('DELETE', `/api/tools/dlt/${toolId}`, { token: admin })).status).toBe(200);
    expectApiError(await runtime.request('GET', `/api/tools/${toolId}/reviews`), 404);
    const all = (await runtime.request('GET', '/api/reviews?limit=100&pageNumber=0')).data;
    expect(all.services.map((r: { _id: string }) => r._id)).toContain(id);
  });

  it('reviews stay on the tool’s page under their name when their authors delete their accounts', async () => {
    const toolId = await makeTool(runtime, admin);
    const leavers: string[] = [];
    for (const name of ['Leaver One', 'Leaver Two']) {
      const email = `leaver-${Date.now().toString(36)}-${++serial}@test.example`;
      const token = await runtime.tokenFor(email);
      await payOrder(runtime, token, await placeOrder(runtime, token, toolId));
      expect((await post(token, review(toolId, { name }))).status).toBe(201);
      leavers.push(email);
    }
    // Each deletion keeps its reviews without the email; two such reviews of one tool never clash.
    for (const email of leavers) {
      const res = await runtime.request('DELETE', '/api/account', {
        token: await runtime.tokenFor(email),
        json: { idToken: await idTokenFor(email) },
      });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    }
    const after = await page(toolId);
    expect(after.count).toBe(2);
    expect(after.services.map((r) => r.name)).toEqual(['Leaver Two', 'Leaver One']);
    expect(after.services.every((r) => r.verified)).toBe(true);
    expect(JSON.stringify(after)).not.toMatch(EMAIL);
  });

  it('a new review shows at once (its post drops the kept pages), and the answer is a public read', async () => {
    const toolId = await makeTool(runtime, admin);
    expect((await page(toolId)).count).toBe(0);
    const before = runtime.deps.changes.version;
    await post(await newBuyer(toolId), review(toolId));
    expect(runtime.deps.changes.version).not.toBe(before);
    expect((await page(toolId)).count).toBe(1);
    const res = await runtime.request('GET', `/api/tools/${toolId}/reviews`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const etag = res.headers.get('etag')!;
    expect(
      (await runtime.request('GET', `/api/tools/${toolId}/reviews`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
  });

  it('the outer server keeps one copy per page, whatever else the URL carries', async () => {
    const toolId = await makeTool(runtime, admin);
    for (let i = 0; i < 3; i++) await post(await newBuyer(toolId), review(toolId));
    const keys: (string | undefined)[] = [];
    const keep = (answer: PublicAnswer) => keys.push(answer.key);
    const get = (query: string) => runtime.app.request(`/api/tools/${toolId}/reviews${query}`, {}, { keep });
    const { nextCursor } = (await (await get('?limit=1')).json()) as ToolReviewsPage;
    for (const query of ['', '?x=1', '?limit=05&junk=2', `?limit=1&cursor=${nextCursor}&y=3`]) await get(query);
    const base = `/api/tools/${toolId}/reviews`;
    expect(keys).toEqual([
      `${base}?limit=1`,
      `${base}?limit=5`,
      `${base}?limit=5`,
      `${base}?limit=5`,
      `${base}?limit=1&cursor=${nextCursor}`,
    ]);
  });
});
