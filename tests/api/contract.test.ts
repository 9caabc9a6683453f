// The wire contract of spec point 7: every response's shape and the spec's field names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, BOB, createTestRuntime, idTokenFor, type TestRuntime } from './harness';
import { ADDRESS, PHONE, makeTool, payOrder, placeOrder } from './helpers';

const ID = expect.stringMatching(/^[0-9a-f]{24}$/);
// The spec's fields, then the trade's (issue 26): price breaks, pack size and the quote threshold.
const TOOL_KEYS = [
  '_id',
  'availableQuantity',
  'description',
  'img',
  'minimumOrderQuantity',
  'name',
  'packSize',
  'price',
  'priceBreaks',
  'quoteAbove',
];
/** Manage products' page adds the shop's low-stock level and flag. */
const ADMIN_TOOL_KEYS = [...TOOL_KEYS, 'lowStock', 'lowStockUnits', 'ownLowStockUnits'].sort();
const ORDER_KEYS = [
  '_id',
  'productName',
  'price',
  'userName',
  'email',
  'address',
  'phone',
  'quantity',
  'payment',
  'transactionId',
  'toolId',
  'shippingStatus',
  'items',
  'totalCents',
];
const USER_KEYS = ['address', 'education', 'email', 'name', 'phoneNumber', 'role', 'signUpDate', 'social'];
// The public list omits the spec's addedBy (a reviewer's email); the admins' moderation list has it.
const REVIEW_KEYS = ['Messege', '_id', 'name', 'ratings'];

let runtime: TestRuntime;
let admin: string;
let alice: string;
let toolId: string;
let aliceName: string;
beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  // The emulator account is shared by all files, so its display name is whatever the first file gave it.
  aliceName = (await runtime.request('GET', `/api/userprofile/${ALICE}`, { token: alice })).data.name;
  await runtime.tokenFor(BOB);
  toolId = await makeTool(runtime, admin, { price: 7.25, minimumOrderQuantity: 2, availableQuantity: 90 });
});
afterAll(() => runtime.close());

describe('tools', () => {
  it("GET /tools: an array of tools with exactly the spec fields (and the trade's), newest first", async () => {
    const { status, data } = await runtime.request('GET', '/api/tools');
    expect(status).toBe(200);
    expect(Array.isArray(data)).toBe(true);
    for (const tool of data) expect(Object.keys(tool).sort()).toEqual(TOOL_KEYS);
    expect(data[0]).toEqual({
      _id: toolId,
      name: expect.any(String),
      img: '/images/tools/ball-peen-hammer.svg',
      description: expect.any(String),
      minimumOrderQuantity: 2,
      availableQuantity: 90,
      price: 7.25,
      priceBreaks: [],
      packSize: 1,
      quoteAbove: null,
    });
  });
  it('GET /tools?limit=&cursor=: a page {items, total, nextCursor} of the same tools', async () => {
    const { status, data } = await runtime.request('GET', '/api/tools?limit=1');
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(['items', 'nextCursor', 'total']);
    expect(data.items).toHaveLength(1);
    expect(Object.keys(data.items[0]).sort()).toEqual(TOOL_KEYS);
    const forAdmin = await runtime.request('GET', '/api/tools?limit=1', { token: admin });
    expect(Object.keys(forAdmin.data.items[0]).sort()).toEqual(ADMIN_TOOL_KEYS);
    expect(data.items[0]._id).toBe(toolId);
    expect(data.total).toBe((await runtime.request('GET', '/api/tools')).data.length);
    expect(data.nextCursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
  });
  it('GET /tools/{id}: one tool', async () => {
    const { status, data } = await runtime.request('GET', `/api/tools/${toolId}`);
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(TOOL_KEYS);
    expect(data).toMatchObject({ _id: toolId, price: 7.25 });
  });
  it.each([
    ['minimumOrderQuantity', { minimumOrderQuantity: 3, availableQuantity: 400 }],
    ['MinimumOrderQuantity (the spec spelling)', { MinimumOrderQuantity: 3, availableQuantity: 400 }],
  ])('POST /tools with %s stores each number in its own column', async (_, quantities) => {
    const res = await runtime.request('POST', '/api/tools', {
      token: admin,
      json: {
        name: 'Claw hammer',
        description: 'Steel.',
        price: '19.99',
        img: 'https://i.ibb.co/abc/hammer.png',
        ...quantities,
      },
    });
    expect(res).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    const tool = (await runtime.request('GET', `/api/tools/${res.data.insertedId}`)).data;
    expect(tool).toMatchObject({ minimumOrderQuantity: 3, availableQuantity: 400, price: 19.99 });
    const [row] = await runtime.db.query(
      'SELECT minimum_order_quantity, available_quantity, price_cents FROM tools WHERE id = $1',
      [tool._id],
    );
    expect(row).toEqual({ minimum_order_quantity: 3, available_quantity: 400, price_cents: 1999 });
  });
  it('DELETE /tools/dlt/{id} and PUT /tool/update/{id} answer the acknowledged shape', async () => {
    const id = await makeTool(runtime, admin);
    expect(
      await runtime.request('PUT', `/api/tool/update/${id}`, { token: admin, json: { availableQuantity: 77 } }),
    ).toMatchObject({
      status: 200,
      data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 },
    });
    expect((await runtime.request('GET', `/api/tools/${id}`)).data.availableQuantity).toBe(77);
    expect(await runtime.request('DELETE', `/api/tools/dlt/${id}`, { token: admin })).toMatchObject({
      status: 200,
      data: { acknowledged: true, deletedCount: 1 },
    });
  });
  it('GET /tools carries an ETag and answers 304 while nothing changed', async () => {
    const first = await runtime.request('GET', '/api/tools');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await runtime.request('GET', '/api/tools', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.data).toBeUndefined();
    await makeTool(runtime, admin);
    const changed = await runtime.request('GET', '/api/tools', { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
  it('GET /tools/{id} also revalidates with 304', async () => {
    const first = await runtime.request('GET', `/api/tools/${toolId}`);
    const res = await runtime.request('GET', `/api/tools/${toolId}`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(res.status).toBe(304);
  });
});

describe('orders', () => {
  let orderId: string;
  it('POST /booking answers {acknowledged, insertedId} with 201', async () => {
    const res = await runtime.request('POST', '/api/booking', {
      token: alice,
      json: { toolId, quantity: 4, address: ADDRESS, phone: PHONE },
    });
    expect(res).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    orderId = res.data.insertedId;
  });
  it('GET /booking/{id}: the spec fields plus toolId and shippingStatus', async () => {
    const { status, data } = await runtime.request('GET', `/api/booking/${orderId}`, { token: alice });
    expect(status).toBe(200);
    expect(Object.keys(data)).toEqual(expect.arrayContaining(ORDER_KEYS));
    expect(data).toMatchObject({
      _id: orderId,
      toolId,
      productName: expect.stringMatching(/^Test hammer/),
      price: 7.25,
      userName: aliceName,
      email: ALICE,
      address: ADDRESS,
      phone: PHONE,
      quantity: 4,
      payment: 'unpaid',
      transactionId: null,
      shippingStatus: 'pending',
      // Ours beside the spec's: when the hold ends, and a refund if a late payment was given back.
      expiresAt: expect.any(String),
      refund: null,
      // The order's lines: the spec's one tool is one line.
      items: [{ toolId, productName: expect.stringMatching(/^Test hammer/), price: 7.25, quantity: 4 }],
      totalCents: 2900,
    });
  });
  it('POST /orders answers {acknowledged, insertedId} with 201; the order reads its lines, "N tools", all units and the total', async () => {
    const other = await makeTool(runtime, admin, { price: 1.5 });
    const res = await runtime.request('POST', '/api/orders', {
      token: alice,
      json: {
        items: [
          { toolId, quantity: 2 },
          { toolId: other, quantity: 3 },
        ],
        address: ADDRESS,
        phone: PHONE,
      },
    });
    expect(res).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    expect(Object.keys(res.data).sort()).toEqual(['acknowledged', 'insertedId']);
    const { data } = await runtime.request('GET', `/api/booking/${res.data.insertedId}`, { token: alice });
    expect(Object.keys(data)).toEqual(expect.arrayContaining(ORDER_KEYS));
    expect(data).toMatchObject({
      toolId: null,
      productName: '2 tools',
      price: 19,
      quantity: 5,
      totalCents: 1900,
      items: [
        { toolId, productName: expect.any(String), price: 7.25, quantity: 2 },
        { toolId: other, productName: expect.any(String), price: 1.5, quantity: 3 },
      ],
    });
    await runtime.request('DELETE', `/api/booking/dlt/${res.data.insertedId}`, { token: alice });
  });
  it('GET /booking/email/{email} and GET /booking: arrays of orders, newest first', async () => {
    const second = await placeOrder(runtime, alice, toolId, 2);
    for (const [url, token] of [
      [`/api/booking/email/${ALICE}`, alice],
      ['/api/booking', admin],
    ]) {
      const { status, data } = await runtime.request('GET', url, { token });
      expect(status).toBe(200);
      expect(data.map((o: { _id: string }) => o._id).slice(0, 2)).toEqual([second, orderId]);
      for (const order of data) expect(Object.keys(order)).toEqual(expect.arrayContaining(ORDER_KEYS));
    }
    expect((await runtime.request('GET', `/api/booking/email/${BOB}`, { token: admin })).data).toEqual([]);
  });
  it('GET /booking/email/{email}?limit=&cursor= and GET /booking?limit=&cursor=: a page {items, total, nextCursor} of the same orders', async () => {
    for (const [url, token] of [
      [`/api/booking/email/${ALICE}`, alice],
      ['/api/booking', admin],
    ]) {
      const all = (await runtime.request('GET', url, { token })).data;
      const { status, data } = await runtime.request('GET', `${url}?limit=1`, { token });
      expect(status).toBe(200);
      expect(Object.keys(data).sort()).toEqual(['items', 'nextCursor', 'total']);
      expect(data.items).toEqual(all.slice(0, 1));
      expect(data.total).toBe(all.length);
      expect(data.nextCursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
    }
    expect((await runtime.request('GET', `/api/booking/email/${BOB}?limit=5`, { token: admin })).data).toEqual({
      items: [],
      total: 0,
      nextCursor: null,
    });
  });
  it('a paid order reads payment "paid" with its transactionId', async () => {
    const transactionId = await payOrder(runtime, alice, orderId);
    const { data } = await runtime.request('GET', `/api/booking/${orderId}`, { token: alice });
    expect(data).toMatchObject({ payment: 'paid', transactionId });
  });
  it('PUT /booking/ship/{id} and DELETE /booking/dlt/{id} answer the acknowledged shape', async () => {
    expect(await runtime.request('PUT', `/api/booking/ship/${orderId}`, { token: admin })).toMatchObject({
      status: 200,
      data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 },
    });
    const unpaid = await placeOrder(runtime, alice, toolId, 2);
    expect(await runtime.request('DELETE', `/api/booking/dlt/${unpaid}`, { token: alice })).toMatchObject({
      status: 200,
      data: { acknowledged: true, deletedCount: 1 },
    });
  });
  it('POST /create-payment-intent answers {clientSecret}', async () => {
    const id = await placeOrder(runtime, alice, toolId, 2);
    const res = await runtime.request('POST', '/api/create-payment-intent', {
      token: alice,
      json: { orderId: id, price: 1450 },
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ clientSecret: expect.any(String), amountCents: 1450 });
  });
});

describe('users', () => {
  it('PUT /user/{email} answers {token}', async () => {
    const res = await runtime.request('PUT', `/api/user/${BOB}`, {
      token: await idTokenFor(BOB),
      json: { email: BOB },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.data)).toEqual(['token']);
    expect(res.data.token.split('.')).toHaveLength(3);
  });
  it('GET /admin/{email} answers {admin: boolean}', async () => {
    expect((await runtime.request('GET', `/api/admin/${ALICE}`, { token: alice })).data).toEqual({ admin: false });
    expect((await runtime.request('GET', `/api/admin/${ADMIN}`, { token: admin })).data).toEqual({ admin: true });
  });
  it('GET /userprofile/{email}: the spec profile fields', async () => {
    const { status, data } = await runtime.request('GET', `/api/userprofile/${ALICE}`, { token: alice });
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(USER_KEYS);
    expect(data).toMatchObject({ email: ALICE, name: aliceName, role: 'user' });
    expect(aliceName).toBeTruthy();
    expect(new Date(data.signUpDate).toISOString()).toBe(data.signUpDate);
  });
  it('PUT /userupdate/{email} answers the acknowledged shape', async () => {
    const res = await runtime.request('PUT', `/api/userupdate/${ALICE}`, {
      token: alice,
      json: {
        email: ALICE,
        name: 'Alice A.',
        education: 'BSc',
        social: 'https://example.com/a',
        phoneNumber: 1712345678,
        address: ADDRESS,
        signUpDate: 'x',
      },
    });
    expect(res).toMatchObject({ status: 200, data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 } });
    expect((await runtime.request('GET', `/api/userprofile/${ALICE}`, { token: alice })).data.phoneNumber).toBe(
      '1712345678',
    );
  });
  it('GET /allusers: users with the profile fields and role', async () => {
    const { status, data } = await runtime.request('GET', '/api/allusers', { token: admin });
    expect(status).toBe(200);
    for (const user of data) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect(data.find((u: { email: string }) => u.email === ADMIN).role).toBe('admin');
  });
  it('GET /allusers?limit=&cursor=: a page {items, total, nextCursor} of the same users', async () => {
    const all = (await runtime.request('GET', '/api/allusers', { token: admin })).data;
    const { status, data } = await runtime.request('GET', `/api/allusers?limit=${all.length}`, { token: admin });
    expect(status).toBe(200);
    expect(data).toEqual({ items: all, total: all.length, nextCursor: null });
  });
  it('PUT /allusers/makeadmin and DELETE /allusers/dlt answer the acknowledged shape', async () => {
    const email = 'carol@test.example';
    await runtime.db.query('INSERT INTO users (email, name) VALUES ($1, $2)', [email, 'Carol']);
    expect(await runtime.request('PUT', `/api/allusers/makeadmin/${email}`, { token: admin })).toMatchObject({
      status: 200,
      data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 },
    });
    expect(await runtime.request('DELETE', `/api/allusers/dlt/${email}`, { token: admin })).toMatchObject({
      status: 200,
      data: { acknowledged: true, deletedCount: 1 },
    });
  });
});

describe('reviews', () => {
  it('GET /reviews answers {services, count}, zero-based pages, newest first', async () => {
    const { data: all } = await runtime.request('GET', '/api/reviews?limit=100&pageNumber=0');
    expect(Object.keys(all).sort()).toEqual(['count', 'services']);
    expect(all.services).toHaveLength(all.count);
    for (const review of all.services) expect(Object.keys(review).sort()).toEqual(REVIEW_KEYS);
    const page0 = (await runtime.request('GET', '/api/reviews?limit=5&pageNumber=0')).data;
    const page1 = (await runtime.request('GET', '/api/reviews?limit=5&pageNumber=1')).data;
    expect(page0.services).toEqual(all.services.slice(0, 5));
    expect(page1.services).toEqual(all.services.slice(5, 10));
    expect(page1.count).toBe(all.count);
    const last = Math.ceil(all.count / 5) - 1;
    expect((await runtime.request('GET', `/api/reviews?limit=5&pageNumber=${last}`)).data.services).toEqual(
      all.services.slice(last * 5),
    );
    expect((await runtime.request('GET', `/api/reviews?limit=5&pageNumber=${last + 1}`)).data.services).toEqual([]);
    expect((await runtime.request('GET', '/api/reviews')).data.services).toHaveLength(5);
  });
  it('POST /review answers {acknowledged, insertedId}; the review is first on page 0, addedBy from the token in the moderation list', async () => {
    const before = (await runtime.request('GET', '/api/reviews?limit=5&pageNumber=0')).data.count;
    const res = await runtime.request('POST', '/api/review', {
      token: alice,
      json: { name: 'Alice', Messege: 'Great sledgehammers.', ratings: 4.75, addedBy: 'mallory@evil.example' },
    });
    expect(res).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    const { data } = await runtime.request('GET', '/api/reviews?limit=5&pageNumber=0');
    expect(data.count).toBe(before + 1);
    expect(data.services[0]).toEqual({
      _id: res.data.insertedId,
      name: 'Alice',
      Messege: 'Great sledgehammers.',
      ratings: 4.75,
    });
    const moderation = (await runtime.request('GET', '/api/reviews/moderation?limit=5&pageNumber=0', { token: admin }))
      .data;
    expect(moderation.services[0]).toEqual({ ...data.services[0], addedBy: ALICE, hidden: false });
  });
  it('GET /reviews/moderation answers {services, count} with addedBy and hidden; PUT /reviews/hide/{id} answers {acknowledged, matchedCount, modifiedCount}', async () => {
    const { status, data } = await runtime.request('GET', '/api/reviews/moderation?limit=100&pageNumber=0', {
      token: admin,
    });
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(['count', 'services']);
    for (const review of data.services)
      expect(Object.keys(review).sort()).toEqual([...REVIEW_KEYS, 'addedBy', 'hidden'].sort());
    const id = data.services[0]._id;
    const hide = (hidden: boolean) =>
      runtime.request('PUT', `/api/reviews/hide/${id}`, { token: admin, json: { hidden } });
    expect(await hide(true)).toMatchObject({
      status: 200,
      data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 },
    });
    expect(
      (await runtime.request('GET', '/api/reviews?limit=5&pageNumber=0')).data.services.map(
        (r: { _id: string }) => r._id,
      ),
    ).not.toContain(id);
    expect(await hide(false)).toMatchObject({
      status: 200,
      data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 },
    });
  });
});

describe("a tool's reviews", () => {
  it('POST /review with toolId (a paid buyer) answers {acknowledged, insertedId}; GET /tools/{id}/reviews answers {services, count, average, nextCursor}', async () => {
    await payOrder(runtime, alice, await placeOrder(runtime, alice, toolId, 2));
    expect((await runtime.request('GET', `/api/tools/${toolId}/reviews/eligibility`, { token: alice })).data).toEqual({
      canReview: true,
      reason: null,
    });
    const res = await runtime.request('POST', '/api/review', {
      token: alice,
      json: {
        name: 'Alice',
        Messege: 'Sturdy and true.',
        ratings: 4.25,
        toolId,
        verified: false,
        addedBy: 'mallory@evil.example',
      },
    });
    expect(res).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    const { status, data } = await runtime.request('GET', `/api/tools/${toolId}/reviews?limit=5`);
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(['average', 'count', 'nextCursor', 'services']);
    expect(data).toEqual({
      services: [
        {
          _id: res.data.insertedId,
          name: 'Alice',
          Messege: 'Sturdy and true.',
          ratings: 4.25,
          verified: true,
          createdAt: expect.any(String),
        },
      ],
      count: 1,
      average: 4.25,
      nextCursor: null,
    });
    expect(new Date(data.services[0].createdAt).toISOString()).toBe(data.services[0].createdAt);
    expect((await runtime.request('GET', `/api/tools/${toolId}/reviews/eligibility`, { token: alice })).data).toEqual({
      canReview: false,
      reason: 'reviewed',
    });
  });
});

describe('account', () => {
  it('GET /account/export answers a JSON attachment {format, version, exportedAt, profile, orders, reviews}', async () => {
    const res = await runtime.request('GET', '/api/account/export', { token: alice });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="ironcrest-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Object.keys(res.data).sort()).toEqual(['exportedAt', 'format', 'orders', 'profile', 'reviews', 'version']);
    expect(res.data).toMatchObject({ format: 'ironcrest-account-export', version: 1, profile: { email: ALICE } });
    expect(Object.keys(res.data.profile).sort()).toEqual(USER_KEYS);
    expect(res.data.orders.length).toBeGreaterThan(0);
    for (const order of res.data.orders) {
      expect(Object.keys(order)).toEqual(
        expect.arrayContaining([...ORDER_KEYS, 'createdAt', 'expiresAt', 'cancelReason', 'refund']),
      );
    }
    for (const review of res.data.reviews)
      expect(Object.keys(review).sort()).toEqual([...REVIEW_KEYS, 'createdAt', 'hidden'].sort());
  });
  it('DELETE /account answers the acknowledged shape', async () => {
    const email = 'contract-leaver@test.example';
    const token = await runtime.tokenFor(email);
    const res = await runtime.request('DELETE', '/api/account', { token, json: { idToken: await idTokenFor(email) } });
    expect(res).toMatchObject({ status: 200, data: { acknowledged: true, deletedCount: 1 } });
  });
});

describe('inbox and audit log (admins)', () => {
  it('POST /contact, GET /contact and PUT /contact/{id}/read: a page of messages with the unread count', async () => {
    const sent = await runtime.request('POST', '/api/contact', {
      json: { name: 'Visitor', email: 'visitor@example.com', message: 'Do you ship abroad?' },
      headers: { 'x-test-ip': 'contract-contact' },
    });
    expect(sent).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    const { status, data } = await runtime.request('GET', '/api/contact?limit=1', { token: admin });
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(['items', 'nextCursor', 'total', 'unread']);
    expect(data.items[0]).toEqual({
      _id: sent.data.insertedId,
      name: 'Visitor',
      email: 'visitor@example.com',
      message: 'Do you ship abroad?',
      receivedAt: expect.any(String),
      read: false,
    });
    expect(
      await runtime.request('PUT', `/api/contact/${sent.data.insertedId}/read`, { token: admin, json: { read: true } }),
    ).toMatchObject({
      status: 200,
      data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 },
    });
  });
  it('GET /audit: a page of entries {seq, at, type, actor, subject, target, before, after}', async () => {
    const { status, data } = await runtime.request('GET', '/api/audit?limit=1', { token: admin });
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(['items', 'nextCursor', 'total']);
    expect(Object.keys(data.items[0]).sort()).toEqual([
      'actor',
      'after',
      'at',
      'before',
      'seq',
      'subject',
      'target',
      'type',
    ]);
  });
});

describe('quotes', () => {
  const QUOTE_KEYS = [
    '_id',
    'answeredAt',
    'createdAt',
    'email',
    'expiresAt',
    'lines',
    'note',
    'orderId',
    'state',
    'totalCents',
    'userName',
  ];
  it('POST /quotes, GET /quotes (array or page), GET /quotes/{id}, PUT answer, POST accept and decline', async () => {
    const asked = await runtime.request('POST', '/api/quotes', {
      token: alice,
      json: { items: [{ toolId, quantity: 4 }], note: 'Hi' },
    });
    expect(asked).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    const id = asked.data.insertedId;
    const list = await runtime.request('GET', '/api/quotes', { token: alice });
    expect(Array.isArray(list.data)).toBe(true);
    for (const q of list.data) expect(Object.keys(q).sort()).toEqual(QUOTE_KEYS);
    const page = await runtime.request('GET', '/api/quotes?limit=1', { token: admin });
    expect(Object.keys(page.data).sort()).toEqual(['items', 'nextCursor', 'total']);
    const one = (await runtime.request('GET', `/api/quotes/${id}`, { token: alice })).data;
    expect(one).toEqual({
      _id: id,
      email: ALICE,
      userName: expect.any(String),
      note: 'Hi',
      state: 'requested',
      totalCents: null,
      createdAt: expect.any(String),
      answeredAt: null,
      expiresAt: null,
      orderId: null,
      lines: [{ toolId, productName: expect.any(String), quantity: 4, listPrice: 7.25, price: null }],
    });
    const expiresAt = new Date(runtime.deps.now().getTime() + 86_400_000).toISOString();
    const answered = await runtime.request('PUT', `/api/quotes/${id}/answer`, {
      token: admin,
      json: { lines: [{ toolId, price: 7 }], expiresAt },
    });
    expect(answered.status).toBe(200);
    expect(Object.keys(answered.data).sort()).toEqual(QUOTE_KEYS);
    expect(answered.data).toMatchObject({ state: 'answered', totalCents: 2800, expiresAt, lines: [{ price: 7 }] });
    const accepted = await runtime.request('POST', `/api/quotes/${id}/accept`, {
      token: alice,
      json: { address: ADDRESS, phone: PHONE },
    });
    expect(accepted).toMatchObject({ status: 201, data: { acknowledged: true, insertedId: ID } });
    const other = (
      await runtime.request('POST', '/api/quotes', { token: alice, json: { items: [{ toolId, quantity: 2 }] } })
    ).data.insertedId;
    const declined = await runtime.request('POST', `/api/quotes/${other}/decline`, { token: alice });
    expect(declined.status).toBe(200);
    expect(declined.data).toMatchObject({ _id: other, state: 'declined' });
  });
});

describe('CSV in and out (admins)', () => {
  it('POST /import/tools: {dryRun, rows: [{row, action, _id?, name, errors?}], summary: {create, update, error}}', async () => {
    const csv =
      'name,description,img,price,minimumOrderQuantity,availableQuantity\r\nContract mallet,Rubber.,/images/tools/rubber-mallet.svg,9.50,1,30\r\n,x,bad,0,0,0\r\n';
    const { status, data } = await runtime.request('POST', '/api/import/tools', {
      token: admin,
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(status).toBe(200);
    expect(Object.keys(data).sort()).toEqual(['dryRun', 'rows', 'summary']);
    expect(data.rows[0]).toEqual({ row: 2, action: 'create', name: 'Contract mallet' });
    expect(Object.keys(data.rows[1]).sort()).toEqual(['action', 'errors', 'name', 'row']);
    expect(Object.keys(data.rows[1].errors[0]).sort()).toEqual(['column', 'message']);
    expect(data.summary).toEqual({ create: 1, update: 0, error: 1 });
  });
});

describe('webhooks (admins)', () => {
  const ENDPOINT_KEYS = [
    'createdAt',
    'createdBy',
    'events',
    'failed',
    'id',
    'lastSuccessAt',
    'pausedAt',
    'pausedReason',
    'pending',
    'state',
    'url',
  ];
  const DELIVERY_KEYS = [
    'attempts',
    'createdAt',
    'durationMs',
    'error',
    'eventType',
    'id',
    'lastAttemptAt',
    'nextAttemptAt',
    'responseStatus',
    'state',
    'subject',
  ];
  it('POST /webhooks answers {id, secret}; GET /webhooks an array of endpoints; deliveries a page; resume an endpoint; replay a delivery; DELETE the acknowledged shape', async () => {
    const made = await runtime.request('POST', '/api/webhooks', {
      token: admin,
      json: { url: 'http://127.0.0.1:9/contract', events: ['tool.created'] },
    });
    expect(made).toMatchObject({ status: 201, data: { id: ID, secret: expect.stringMatching(/^whsec_/) } });
    expect(Object.keys(made.data).sort()).toEqual(['id', 'secret']);
    const id = made.data.id;
    const list = await runtime.request('GET', '/api/webhooks', { token: admin });
    for (const e of list.data) expect(Object.keys(e).sort()).toEqual(ENDPOINT_KEYS);
    await makeTool(runtime, admin);
    const page = await runtime.request('GET', `/api/webhooks/${id}/deliveries`, { token: admin });
    expect(Object.keys(page.data).sort()).toEqual(['items', 'nextCursor', 'total']);
    expect(Object.keys(page.data.items[0]).sort()).toEqual(DELIVERY_KEYS);
    expect(page.data.items[0]).toMatchObject({
      id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      eventType: 'tool.created',
      state: 'pending',
      attempts: 0,
    });
    const resumed = await runtime.request('POST', `/api/webhooks/${id}/resume`, { token: admin });
    expect(Object.keys(resumed.data).sort()).toEqual(ENDPOINT_KEYS);
    const replayed = await runtime.request('POST', `/api/webhooks/${id}/deliveries/${page.data.items[0].id}/replay`, {
      token: admin,
    });
    expect(Object.keys(replayed.data).sort()).toEqual(DELIVERY_KEYS);
    expect(await runtime.request('DELETE', `/api/webhooks/${id}`, { token: admin })).toMatchObject({
      status: 200,
      data: { acknowledged: true, deletedCount: 1 },
    });
  });
});

describe('errors', () => {
  it('unknown ids answer a JSON 404', async () => {
    expect(await runtime.request('GET', `/api/tools/${'0'.repeat(24)}`)).toMatchObject({
      status: 404,
      data: { error: { code: 'not_found', message: expect.any(String) } },
    });
  });
});
