// Issue 26, quote requests: a buyer asks (the minimum order and pack size apply, stock does not), an admin
// answers with a price per line and an expiry, the buyer accepts once (an order at those prices, above
// the tool's quote threshold, with the usual stock and payment rules) or declines. Only the buyer and
// admins see a quote. The shop hears of a request, the buyer of the answer (through the outbox).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_QUOTES } from '../../src/lib/limits';
import { messages } from '../../src/lib/messages';
import { ADMIN, createTestRuntime, type TestRuntime } from './harness';
import { ADDRESS, PHONE, expectApiError, makeTool, payOrder, setTool, snapshot, stockOf } from './helpers';

let runtime: TestRuntime;
let admin: string;
let buyer: string;
let other: string;
const BUYER = 'quote.buyer@test.example';
const OTHER = 'quote.other@test.example';
const DAY = 24 * 3600_000;
const DELIVERY = { address: ADDRESS, phone: PHONE };

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { SHOP_EMAIL: 'shop@test.example' } });
  admin = await runtime.tokenFor(ADMIN);
  buyer = await runtime.tokenFor(BUYER, 'Quinn Buyer');
  other = await runtime.tokenFor(OTHER);
});
afterAll(() => runtime.close());

const ask = (token: string | null, json: unknown) => runtime.request('POST', '/api/quotes', { token, json });
const answer = (id: string, token: string | null, json: unknown) =>
  runtime.request('PUT', `/api/quotes/${id}/answer`, { token, json });
const accept = (id: string, token: string | null, json: unknown = DELIVERY) =>
  runtime.request('POST', `/api/quotes/${id}/accept`, { token, json });
const decline = (id: string, token: string | null) => runtime.request('POST', `/api/quotes/${id}/decline`, { token });
const get = (id: string, token: string | null) => runtime.request('GET', `/api/quotes/${id}`, { token });
const inDays = (days: number) => new Date(runtime.deps.now().getTime() + days * DAY).toISOString();

/** A trade tool: $10.00, breaks at 100 ($9.00) and 500 ($8.00), packs of 10, quotes above 200 units. */
const tradeTool = (over: Record<string, unknown> = {}) =>
  makeTool(runtime, admin, {
    price: 10,
    minimumOrderQuantity: 20,
    packSize: 10,
    quoteAbove: 200,
    priceBreaks: [
      { minQuantity: 100, price: 9 },
      { minQuantity: 500, price: 8 },
    ],
    availableQuantity: 5000,
    ...over,
  });

/** A request that must succeed; returns its id. */
async function requested(items: { toolId: string; quantity: number }[], token = buyer, note = ''): Promise<string> {
  const res = await ask(token, { items, note });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data.insertedId;
}

/** A quote asked and answered at these unit prices (by tool), offered for `days`. */
async function answered(
  items: { toolId: string; quantity: number; price: number }[],
  days = 14,
  token = buyer,
): Promise<string> {
  const id = await requested(
    items.map(({ toolId, quantity }) => ({ toolId, quantity })),
    token,
  );
  const res = await answer(id, admin, {
    lines: items.map(({ toolId, price }) => ({ toolId, price })),
    expiresAt: inDays(days),
  });
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return id;
}

describe('asking for a quote', () => {
  let tool: string;
  beforeAll(async () => {
    tool = await tradeTool();
  });

  it('stores the lines at their list price for the quantity, the buyer from the token, and answers 201 {insertedId}', async () => {
    const other2 = await tradeTool({ quoteAbove: null, priceBreaks: [] });
    const res = await ask(buyer, {
      items: [
        { toolId: tool, quantity: 600 },
        { toolId: other2, quantity: 30 },
      ],
      note: 'Delivery by March, please',
      email: 'forged@test.example',
      userName: 'Forged',
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect(res.data.insertedId).toMatch(/^[0-9a-f]{24}$/);
    const quote = (await get(res.data.insertedId, buyer)).data;
    expect(quote).toMatchObject({
      _id: res.data.insertedId,
      email: BUYER,
      userName: 'Quinn Buyer',
      note: 'Delivery by March, please',
      state: 'requested',
      totalCents: null,
      answeredAt: null,
      expiresAt: null,
      orderId: null,
      lines: [
        { toolId: tool, quantity: 600, listPrice: 8, price: null },
        { toolId: other2, quantity: 30, listPrice: 10, price: null },
      ],
    });
    const [row] = await runtime.db.query<{ buyer_uid: string | null }>('SELECT buyer_uid FROM quotes WHERE id = $1', [
      res.data.insertedId,
    ]);
    expect(row.buyer_uid).toBeTruthy();
  });

  it('quotes are not bound by stock: more than is available may be asked', async () => {
    await requested([{ toolId: tool, quantity: 9000 }]);
  });

  it.each([
    ['below the minimum order', 10, messages.quantityBelowMinimum],
    ['not a whole number of packs', 25, messages.quantityNotMultiple(10)],
  ])('refuses a line %s (422, naming the line) and writes nothing', async (_, quantity, message) => {
    const before = await snapshot(runtime);
    const res = await ask(buyer, { items: [{ toolId: tool, quantity }] });
    expectApiError(res, 422);
    expect(res.data.error.message).toContain(message);
    expect(res.data.error.fields).toEqual({ 'items.0.quantity': message });
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('refuses an unknown tool (422, naming the line)', async () => {
    const res = await ask(buyer, {
      items: [
        { toolId: tool, quantity: 20 },
        { toolId: 'f'.repeat(24), quantity: 20 },
      ],
    });
    expectApiError(res, 422);
    expect(res.data.error.message).toBe(messages.quoteToolGone);
    expect(res.data.error.fields).toEqual({ 'items.1.toolId': messages.quoteToolGone });
  });

  it('refuses a bad body (400) and an anonymous caller (401)', async () => {
    expectApiError(await ask(buyer, { items: [] }), 400);
    expectApiError(
      await ask(buyer, {
        items: [
          { toolId: tool, quantity: 20 },
          { toolId: tool, quantity: 30 },
        ],
      }),
      400,
    );
    expectApiError(await ask(null, { items: [{ toolId: tool, quantity: 20 }] }), 401);
  });

  it(`lets a buyer wait for at most ${MAX_OPEN_QUOTES} answers at once (409)`, async () => {
    const email = 'quote.spammer@test.example';
    const token = await runtime.tokenFor(email);
    for (let i = 0; i < MAX_OPEN_QUOTES; i++) await requested([{ toolId: tool, quantity: 20 }], token);
    const res = await ask(token, { items: [{ toolId: tool, quantity: 20 }] });
    expectApiError(res, 409);
    expect(res.data.error.message).toBe(messages.tooManyOpenQuotes(MAX_OPEN_QUOTES));
  });
});

describe('who sees a quote', () => {
  let id: string;
  beforeAll(async () => {
    id = await requested([{ toolId: await tradeTool(), quantity: 40 }]);
  });

  it('its buyer and admins; anyone else 404, anonymous 401, a bad id 400', async () => {
    expect((await get(id, buyer)).status).toBe(200);
    expect((await get(id, admin)).status).toBe(200);
    expectApiError(await get(id, other), 404);
    expectApiError(await get(id, null), 401);
    expectApiError(await get('not-an-id', buyer), 400);
    expectApiError(await get('f'.repeat(24), admin), 404);
  });

  it('GET /quotes lists the caller’s own newest first; an admin all, filtered by state; pages with limit/cursor', async () => {
    const mine = (await runtime.request('GET', '/api/quotes', { token: buyer })).data as {
      _id: string;
      email: string;
    }[];
    expect(mine[0]._id).toBe(id);
    expect(mine.every((q) => q.email === BUYER)).toBe(true);
    expect((await runtime.request('GET', '/api/quotes', { token: other })).data).toEqual([]);
    const all = (await runtime.request('GET', '/api/quotes?state=requested', { token: admin })).data as {
      email: string;
      state: string;
    }[];
    expect(new Set(all.map((q) => q.email))).toEqual(new Set([BUYER, 'quote.spammer@test.example']));
    expect(all.every((q) => q.state === 'requested')).toBe(true);
    const first = (await runtime.request('GET', '/api/quotes?limit=2', { token: buyer })).data;
    expect(first).toMatchObject({ items: [{ _id: id }, {}], total: mine.length, nextCursor: expect.any(String) });
    const second = (await runtime.request('GET', `/api/quotes?limit=2&cursor=${first.nextCursor}`, { token: buyer }))
      .data;
    expect(second.items[0]._id).toBe(mine[2]._id);
    expectApiError(await runtime.request('GET', '/api/quotes?state=lost', { token: admin }), 400);
  });
});

describe('answering a quote (admins)', () => {
  let tool: string;
  let id: string;
  beforeAll(async () => {
    tool = await tradeTool();
    id = await requested([{ toolId: tool, quantity: 300 }], buyer, 'Best price?');
  });

  it('non-admins get 403', async () => {
    expectApiError(await answer(id, buyer, { lines: [{ toolId: tool, price: 7 }], expiresAt: inDays(7) }), 403);
  });

  it.each([
    ['a missing line', () => ({ lines: [{ toolId: 'a'.repeat(24), price: 7 }], expiresAt: inDays(7) }), 'lines'],
    [
      'an extra line',
      () => ({
        lines: [
          { toolId: tool, price: 7 },
          { toolId: 'a'.repeat(24), price: 7 },
        ],
        expiresAt: inDays(7),
      }),
      'lines',
    ],
    [
      'a line twice',
      () => ({
        lines: [
          { toolId: tool, price: 7 },
          { toolId: tool, price: 6 },
        ],
        expiresAt: inDays(7),
      }),
      'lines',
    ],
    ['an expiry in the past', () => ({ lines: [{ toolId: tool, price: 7 }], expiresAt: inDays(-1) }), 'expiresAt'],
  ])('refuses %s (422) and writes nothing', async (_, body, field) => {
    const before = await snapshot(runtime);
    const res = await answer(id, admin, body());
    expectApiError(res, 422);
    expect(Object.keys(res.data.error.fields)).toEqual([field]);
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('records the prices and expiry, answers the quote, and can answer it again before acceptance', async () => {
    const expiresAt = inDays(10);
    const res = await answer(id, admin, { lines: [{ toolId: tool, price: 7.5 }], expiresAt });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      _id: id,
      state: 'answered',
      totalCents: 225_000,
      expiresAt,
      lines: [{ price: 7.5, listPrice: 9 }],
    });
    const again = await answer(id, admin, { lines: [{ toolId: tool, price: 7.25 }], expiresAt });
    expect(again.data).toMatchObject({ state: 'answered', totalCents: 217_500 });
    const [row] = await runtime.db.query<{ answered_by: string }>('SELECT answered_by FROM quotes WHERE id = $1', [id]);
    expect(row.answered_by).toBe(ADMIN);
  });

  it('is an admin action in the audit log', async () => {
    const { data } = await runtime.request('GET', '/api/audit?type=quote.answered', { token: admin });
    expect(data.items[0]).toMatchObject({
      actor: ADMIN,
      subject: id,
      target: `Quote ${id.slice(-8).toUpperCase()} of ${BUYER}`,
    });
  });

  it('emails the shop the request and the buyer the answer', async () => {
    await runtime.outbox.run();
    const rows = await runtime.db.query<{ id: string }>(
      `SELECT m.id FROM emails m JOIN events e ON e.seq = m.event_seq WHERE e.subject = $1 ORDER BY m.seq`,
      [id],
    );
    const mails = await Promise.all(
      rows.map(
        async (r) =>
          (await runtime.emails.get(r.id)) as unknown as {
            kind: string;
            recipient: string;
            text: string;
            subject: string;
          },
      ),
    );
    expect(mails.map((m) => [m.kind, m.recipient])).toEqual([
      ['shop-quote-requested', 'shop@test.example'],
      ['quote-answered', BUYER],
      ['quote-answered', BUYER],
    ]);
    expect(mails[0].text).toContain('300 x');
    expect(mails[0].text).toContain('Best price?');
    expect(mails[0].text).toContain('/dashboard/quotes');
    expect(mails[2].text).toContain('at $7.25 (list $9.00) = $2,175.00');
    expect(mails[2].text).toContain('Total: $2,175.00');
    expect(mails[2].text).toContain('/dashboard/myquotes');
  });
});

describe('accepting a quote', () => {
  it('places one order at the quoted prices, above the quote threshold, with total = Σ quoted × quantity; then pays like any order', async () => {
    const a = await tradeTool();
    const b = await tradeTool({ quoteAbove: null, priceBreaks: [], price: 5, minimumOrderQuantity: 1, packSize: 1 });
    const id = await answered([
      { toolId: a, quantity: 400, price: 7.1 },
      { toolId: b, quantity: 3, price: 4.99 },
    ]);
    const stock = await stockOf(runtime, a);
    const res = await accept(id, buyer);
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const orderId = res.data.insertedId;
    const order = (await runtime.request('GET', `/api/booking/${orderId}`, { token: buyer })).data;
    expect(order).toMatchObject({
      email: BUYER,
      payment: 'unpaid',
      totalCents: 400 * 710 + 3 * 499,
      items: [
        { toolId: a, quantity: 400, price: 7.1 },
        { toolId: b, quantity: 3, price: 4.99 },
      ],
    });
    expect(await stockOf(runtime, a)).toBe(stock - 400);
    expect((await get(id, buyer)).data).toMatchObject({ state: 'accepted', orderId });
    await payOrder(runtime, buyer, orderId);
    expect((await runtime.request('GET', `/api/booking/${orderId}`, { token: buyer })).data.payment).toBe('paid');
  });

  it('a second accept is 409 and places nothing', async () => {
    const tool = await tradeTool();
    const id = await answered([{ toolId: tool, quantity: 300, price: 7 }]);
    expect((await accept(id, buyer)).status).toBe(201);
    const before = await snapshot(runtime);
    const res = await accept(id, buyer);
    expectApiError(res, 409);
    expect(res.data.error.message).toBe(messages.quoteClosed('accepted'));
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('two accepts at once make exactly one order', async () => {
    const tool = await tradeTool();
    const id = await answered([{ toolId: tool, quantity: 300, price: 7 }]);
    const results = await Promise.all([accept(id, buyer), accept(id, buyer), accept(id, buyer)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const [{ n }] = await runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM order_items WHERE tool_id = $1`,
      [tool],
    );
    expect(n).toBe(1);
    expect(await stockOf(runtime, tool)).toBe(5000 - 300);
  });

  it('an expired quote is 409 (and reads as expired); an unanswered one 409', async () => {
    const tool = await tradeTool();
    const id = await answered([{ toolId: tool, quantity: 300, price: 7 }], 1);
    runtime.advance(DAY + 60_000);
    expect((await get(id, buyer)).data.state).toBe('expired');
    const res = await accept(id, buyer);
    expectApiError(res, 409);
    expect(res.data.error.message).toBe(messages.quoteExpired);
    expect(
      (await runtime.request('GET', '/api/quotes?state=expired', { token: admin })).data.map(
        (q: { _id: string }) => q._id,
      ),
    ).toContain(id);
    const asked = await requested([{ toolId: tool, quantity: 300 }]);
    expect((await accept(asked, buyer)).data.error.message).toBe(messages.quoteNotAnswered);
  });

  it('the usual stock rule applies: not enough units is 422 and the quote stays answered', async () => {
    const tool = await tradeTool({ availableQuantity: 1000 });
    const id = await answered([{ toolId: tool, quantity: 800, price: 7 }]);
    await setTool(runtime, tool, { available: 500 });
    const res = await accept(id, buyer);
    expectApiError(res, 422);
    expect(res.data.error.message).toContain(messages.quantityAboveAvailable);
    expect((await get(id, buyer)).data.state).toBe('answered');
  });

  it('a tool deleted since is 422', async () => {
    const tool = await tradeTool();
    const id = await answered([{ toolId: tool, quantity: 300, price: 7 }]);
    expect((await runtime.request('DELETE', `/api/tools/dlt/${tool}`, { token: admin })).status).toBe(200);
    const res = await accept(id, buyer);
    expectApiError(res, 422);
    expect(res.data.error.message).toBe(messages.quoteToolGone);
  });

  it('only its buyer: someone else 404, an admin 403, anonymous 401; the delivery is validated (400)', async () => {
    const tool = await tradeTool();
    const id = await answered([{ toolId: tool, quantity: 300, price: 7 }]);
    expectApiError(await accept(id, other), 404);
    expectApiError(await accept(id, admin), 403);
    expectApiError(await accept(id, null), 401);
    expectApiError(await accept(id, buyer, { address: ADDRESS, phone: '123' }), 400);
    expectApiError(await accept(id, buyer, { phone: PHONE }), 400);
    expect((await get(id, buyer)).data.state).toBe('answered');
  });
});

describe('declining a quote', () => {
  it('its buyer declines an asked or answered quote (200), once; others may not', async () => {
    const tool = await tradeTool();
    const asked = await requested([{ toolId: tool, quantity: 300 }]);
    const offered = await answered([{ toolId: tool, quantity: 300, price: 7 }]);
    expectApiError(await decline(offered, other), 404);
    expectApiError(await decline(offered, admin), 403);
    expectApiError(await decline(offered, null), 401);
    for (const id of [asked, offered]) {
      const res = await decline(id, buyer);
      expect(res.status, JSON.stringify(res.data)).toBe(200);
      expect(res.data).toMatchObject({ _id: id, state: 'declined' });
    }
    const twice = await decline(offered, buyer);
    expectApiError(twice, 409);
    expect(twice.data.error.message).toBe(messages.quoteClosed('declined'));
    expect((await accept(offered, buyer)).data.error.message).toBe(messages.quoteClosed('declined'));
    const res = await answer(offered, admin, { lines: [{ toolId: tool, price: 6 }], expiresAt: inDays(3) });
    expectApiError(res, 409);
  });
});
