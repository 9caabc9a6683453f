// A user's own account (issue 24): deleting it with a fresh re-authentication, and downloading their data.
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { AccountExport } from '../../src/lib/entities';
import { REAUTH_MAX_AGE_MS } from '../../src/lib/limits';
import { messages } from '../../src/lib/messages';
import { EXPORT_PAGE_SIZE } from '../../src/server/account/account.service';
import { ADMIN, BOB, PASSWORD, createTestRuntime, emulatorAdmin, idTokenFor, type TestRuntime } from './harness';
import { ADDRESS, PHONE, expectApiError, makeTool, payOrder, placeOrder, snapshot, stockOf } from './helpers';

let runtime: TestRuntime;
let admin: string;
let serial = 0;
const unique = (name: string) => `${name.toLowerCase()}-${Date.now().toString(36)}${++serial}@test.example`;

/** A fresh user: our access token and a Firebase ID token from a sign-in just now. */
async function newUser(name: string) {
  const email = unique(name);
  const token = await runtime.tokenFor(email, name);
  const [{ uid }] = await runtime.db.query<{ uid: string }>('SELECT firebase_uid AS uid FROM users WHERE email = $1', [
    email,
  ]);
  return { email, token, uid, fresh: () => idTokenFor(email, name) };
}
type User = Awaited<ReturnType<typeof newUser>>;

const deleteAccount = (user: { token: string }, idToken: string) =>
  runtime.request('DELETE', '/api/account', { token: user.token, json: { idToken } });

/** The sign-in accounts the emulator still has for these uids. */
async function signInAccounts(uid: string): Promise<unknown[]> {
  const found = (await emulatorAdmin('lookup', { localId: [uid] })) as { users?: unknown[] };
  return found.users ?? [];
}

/** Signs in with the password, as the login page would; the emulator's error message when it cannot. */
async function passwordSignIn(email: string): Promise<string> {
  const response = await fetch(
    `http://${inject('emulatorHost')}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
    },
  );
  const body = (await response.json()) as { idToken?: string; error?: { message: string } };
  return body.idToken ? 'signed in' : body.error!.message;
}

async function exportOf(user: { token: string }) {
  const res = await runtime.request('GET', '/api/account/export', { token: user.token });
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return { data: res.data as AccountExport, headers: res.headers };
}

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
});
afterAll(() => runtime.close());

describe('GET /account/export', () => {
  it('downloads the profile, every order with its lines, payment, shipping and refund, and every review (hidden ones marked)', async () => {
    const user = await newUser('Esme');
    await runtime.request('PUT', `/api/userupdate/${user.email}`, {
      token: user.token,
      json: {
        name: 'Esme Exporter',
        education: 'BSc',
        social: 'https://example.com/esme',
        phoneNumber: '01712345678',
        address: ADDRESS,
      },
    });
    const toolA = await makeTool(runtime, admin, { price: 10 });
    const toolB = await makeTool(runtime, admin, { price: 2.5 });
    const unpaid = await placeOrder(runtime, user.token, toolA, 3);
    const cart = await runtime.request('POST', '/api/orders', {
      token: user.token,
      json: {
        items: [
          { toolId: toolA, quantity: 1 },
          { toolId: toolB, quantity: 4 },
        ],
        address: ADDRESS,
        phone: PHONE,
      },
    });
    expect(cart.status).toBe(201);
    const paid = cart.data.insertedId as string;
    const transactionId = await payOrder(runtime, user.token, paid);
    expect((await runtime.request('PUT', `/api/booking/ship/${paid}`, { token: admin })).status).toBe(200);
    // A cancelled order whose payment was refunded (as when a card went through after the hold ran out).
    const refunded = await placeOrder(runtime, user.token, toolB, 2);
    await payOrder(runtime, user.token, refunded);
    await runtime.db.query(
      `UPDATE orders SET payment = 'cancelled', cancel_reason = 'Refunded for the test' WHERE id = $1`,
      [refunded],
    );
    await runtime.db.query(
      `UPDATE payments SET status = 'refunded', refund_id = 're_test', refunded_at = now() WHERE order_id = $1`,
      [refunded],
    );
    const shown = await runtime.request('POST', '/api/review', {
      token: user.token,
      json: { name: 'Esme', Messege: 'Great anvils.', ratings: 4.5 },
    });
    const hidden = await runtime.request('POST', '/api/review', {
      token: user.token,
      json: { name: 'Esme', Messege: 'Rude words.', ratings: 1 },
    });
    await runtime.request('PUT', `/api/reviews/hide/${hidden.data.insertedId}`, {
      token: admin,
      json: { hidden: true },
    });
    // Someone else's order and review are not in it.
    const bob = await runtime.tokenFor(BOB);
    const bobOrder = await placeOrder(runtime, bob, toolA, 1);

    const { data, headers } = await exportOf(user);
    const date = new Date(runtime.deps.now()).toISOString().slice(0, 10);
    expect(headers.get('content-disposition')).toBe(`attachment; filename="ironcrest-data-${date}.json"`);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(data).toMatchObject({ format: 'ironcrest-account-export', version: 1, exportedAt: expect.any(String) });
    expect(data.profile).toMatchObject({
      email: user.email,
      name: 'Esme Exporter',
      education: 'BSc',
      address: ADDRESS,
      role: 'user',
    });
    expect(data.orders.map((o) => o._id)).toEqual([refunded, paid, unpaid]);
    expect(data.orders.map((o) => o._id)).not.toContain(bobOrder);
    const [refundedOrder, paidOrder, unpaidOrder] = data.orders;
    expect(paidOrder).toMatchObject({
      payment: 'paid',
      transactionId,
      shippingStatus: 'shipped',
      totalCents: 2000,
      address: ADDRESS,
      phone: PHONE,
      items: [
        { toolId: toolA, quantity: 1, price: 10 },
        { toolId: toolB, quantity: 4, price: 2.5 },
      ],
    });
    expect(unpaidOrder).toMatchObject({
      payment: 'unpaid',
      quantity: 3,
      refund: null,
      items: [{ toolId: toolA, quantity: 3 }],
    });
    expect(refundedOrder).toMatchObject({ payment: 'cancelled', refund: { id: 're_test', amountCents: 500 } });
    expect(data.reviews).toEqual([
      {
        _id: shown.data.insertedId,
        name: 'Esme',
        Messege: 'Great anvils.',
        ratings: 4.5,
        hidden: false,
        createdAt: expect.any(String),
      },
      {
        _id: hidden.data.insertedId,
        name: 'Esme',
        Messege: 'Rude words.',
        ratings: 1,
        hidden: true,
        createdAt: expect.any(String),
      },
    ]);
  });

  it('a user with no orders or reviews gets empty lists', async () => {
    const { data } = await exportOf(await newUser('Nell'));
    expect(data.orders).toEqual([]);
    expect(data.reviews).toEqual([]);
  });

  it(`reads many orders a page (${EXPORT_PAGE_SIZE}) at a time: all of them, newest first, each once`, async () => {
    const user = await newUser('Bulk');
    const count = EXPORT_PAGE_SIZE * 2 + 7;
    // Made in one statement: placing them one by one through the API would take minutes.
    await runtime.db.query(
      `WITH made AS (
         INSERT INTO orders (id, product_name, unit_price_cents, quantity, total_cents, user_name, email, address, phone, expires_at, buyer_uid, payment)
         SELECT 'b' || lpad(to_hex(n), 23, '0'), 'Bulk hammer', 100, 1, 100, 'Bulk', $1, $2, $3, now(), $4, 'paid' FROM generate_series(1, $5) AS n
         RETURNING id)
       INSERT INTO order_items (order_id, line, product_name, unit_price_cents, quantity) SELECT id, 1, 'Bulk hammer', 100, 1 FROM made`,
      [user.email, ADDRESS, PHONE, user.uid, count],
    );
    const [{ ids }] = await runtime.db.query<{ ids: string[] }>(
      'SELECT array_agg(id ORDER BY seq DESC) AS ids FROM orders WHERE email = $1',
      [user.email],
    );
    const { data } = await exportOf(user);
    expect(data.orders.map((o) => o._id)).toEqual(ids);
    expect(data.orders[0].items).toEqual([{ toolId: null, productName: 'Bulk hammer', price: 1, quantity: 1 }]);

    // Streamed as the client reads: after the first piece, at most the first page has been read.
    const pageReads = vi.spyOn(runtime.db, 'query');
    const orderPages = () =>
      pageReads.mock.calls.filter(([sql]) => /FROM orders o[\s\S]*ORDER BY o\.seq DESC LIMIT/.test(sql)).length;
    try {
      const response = await runtime.app.request('/api/account/export', {
        headers: { authorization: `Bearer ${user.token}` },
      });
      const reader = response.body!.getReader();
      await reader.read();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(orderPages()).toBeLessThanOrEqual(1);
      let pieces = 1;
      while (!(await reader.read()).done) pieces++;
      expect(orderPages()).toBe(Math.ceil(count / EXPORT_PAGE_SIZE));
      expect(pieces).toBeGreaterThan(3);
    } finally {
      pageReads.mockRestore();
    }
  });

  it('is rate limited per user (429)', async () => {
    const user = await newUser('Greedy');
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push((await runtime.request('GET', '/api/account/export', { token: user.token })).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expectApiError(await runtime.request('GET', '/api/account/export', { token: user.token }), 429);
  });
});

describe('DELETE /account', () => {
  it("cancels unpaid orders (units back, payments closed), keeps paid ones as 'Deleted customer', keeps reviews without the email, deletes the sign-in account and the row", async () => {
    const user = await newUser('Dora');
    const tool = await makeTool(runtime, admin, { availableQuantity: 100 });
    const unpaid = await placeOrder(runtime, user.token, tool, 5);
    const withIntent = await placeOrder(runtime, user.token, tool, 2);
    expect(
      (
        await runtime.request('POST', '/api/create-payment-intent', {
          token: user.token,
          json: { orderId: withIntent },
        })
      ).status,
    ).toBe(200);
    const paid = await placeOrder(runtime, user.token, tool, 3);
    const transactionId = await payOrder(runtime, user.token, paid);
    // A hold that ran out: cancelled, nobody paid, nothing to keep.
    const expired = await placeOrder(runtime, user.token, tool, 1);
    await runtime.db.query(`UPDATE orders SET expires_at = '2000-01-01' WHERE id = $1`, [expired]);
    await runtime.checkout.expireHolds();
    expect((await runtime.orders.getRow(expired))!.payment).toBe('cancelled');
    const review = await runtime.request('POST', '/api/review', {
      token: user.token,
      json: { name: 'Dora D.', Messege: 'Fine chisels.', ratings: 5 },
    });
    expect(await stockOf(runtime, tool)).toBe(100 - 5 - 2 - 3);
    expect(await signInAccounts(user.uid)).toHaveLength(1);
    expect(await passwordSignIn(user.email)).toBe('signed in');

    const res = await deleteAccount(user, await user.fresh());
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data).toEqual({ acknowledged: true, deletedCount: 1 });

    // Unpaid orders gone, their units back; the open payment cancelled, not left to succeed.
    expect(await stockOf(runtime, tool)).toBe(100 - 3);
    for (const id of [unpaid, withIntent, expired])
      expectApiError(await runtime.request('GET', `/api/booking/${id}`, { token: admin }), 404);
    const payments = await runtime.db.query<{ status: string }>('SELECT status FROM payments WHERE order_id = $1', [
      withIntent,
    ]);
    expect(payments.map((p) => p.status)).toEqual(['canceled']);
    // The sale stays in the books, without the buyer's name, address or phone.
    const kept = await runtime.request('GET', `/api/booking/${paid}`, { token: admin });
    expect(kept.data).toMatchObject({
      payment: 'paid',
      transactionId,
      quantity: 3,
      userName: messages.deletedCustomer,
      address: messages.deletedCustomer,
      phone: '',
    });
    // The review stays under its name; the email is gone from it.
    const moderation = await runtime.request('GET', '/api/reviews/moderation?limit=100&pageNumber=0', { token: admin });
    expect(moderation.data.services.find((r: { _id: string }) => r._id === review.data.insertedId)).toMatchObject({
      name: 'Dora D.',
      Messege: 'Fine chisels.',
      addedBy: '',
    });
    const [{ n }] = await runtime.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM reviews WHERE added_by = $1',
      [user.email],
    );
    expect(n).toBe(0);
    // The user row and the sign-in account are gone: the old session and the password no longer work.
    expectApiError(await runtime.request('GET', `/api/userprofile/${user.email}`, { token: admin }), 404);
    expect(await signInAccounts(user.uid)).toEqual([]);
    expectApiError(await runtime.request('GET', '/api/account/export', { token: user.token }), 401);
    expect(await passwordSignIn(user.email)).toMatch(/EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/);
  });

  it("refuses the shop's owners (403), whatever the proof, and changes nothing", async () => {
    const before = await snapshot(runtime);
    const res = await deleteAccount({ token: admin }, await idTokenFor(ADMIN));
    expectApiError(res, 403);
    expect(res.data.error).toEqual({ code: 'forbidden', message: messages.ownerCannotDeleteAccount });
    expect(await snapshot(runtime)).toEqual(before);
  });

  it.each([
    ['an invalid ID token', async () => 'aGVhZGVy.Ym9keQ.c2ln', 'reauthentication_required'],
    ['our own access token', async (u: User) => u.token, 'reauthentication_required'],
    ["another user's fresh ID token", async () => idTokenFor(BOB), 'reauthentication_mismatch'],
  ])('refuses %s (403) and changes nothing', async (_, make, code) => {
    const user = await newUser('Ivy');
    const tool = await makeTool(runtime, admin);
    await placeOrder(runtime, user.token, tool, 2);
    const before = await snapshot(runtime);
    const res = await deleteAccount(user, await make(user));
    expectApiError(res, 403);
    expect(res.data.error.code).toBe(code);
    expect(await snapshot(runtime)).toEqual(before);
    expect(await signInAccounts(user.uid)).toHaveLength(1);
  });

  it('an admin may delete themself while another admin remains; the last admin never (409)', async () => {
    const carol = await newUser('Carol');
    const dan = await newUser('Dan');
    // The owner of this store never signed in here, so Carol and Dan are its only usable admins.
    await runtime.db.query(
      `UPDATE users SET role = CASE WHEN email = $1 THEN 'user' ELSE 'admin' END WHERE email IN ($1, $2, $3)`,
      [ADMIN, carol.email, dan.email],
    );
    runtime.usersWritten();
    try {
      expect((await deleteAccount(carol, await carol.fresh())).status).toBe(200);
      const before = await snapshot(runtime);
      const res = await deleteAccount(dan, await dan.fresh());
      expectApiError(res, 409);
      expect(res.data.error.message).toBe(messages.lastAdminKept);
      expect(await snapshot(runtime)).toEqual(before);
      expect(await signInAccounts(dan.uid)).toHaveLength(1);
    } finally {
      await runtime.db.query(`UPDATE users SET role = 'admin' WHERE email = $1`, [ADMIN]);
      runtime.usersWritten();
    }
  });

  it('runs once when sent twice at the same moment', async () => {
    const user = await newUser('Twice');
    const tool = await makeTool(runtime, admin, { availableQuantity: 10 });
    await placeOrder(runtime, user.token, tool, 4);
    const idToken = await user.fresh();
    const statuses = (await Promise.all([deleteAccount(user, idToken), deleteAccount(user, idToken)]))
      .map((r) => r.status)
      .sort();
    expect(statuses[0]).toBe(200);
    // The loser finds the account gone: at the guard (401), the sign-in check (403) or the row lock (404).
    expect([401, 403, 404]).toContain(statuses[1]);
    expect(await stockOf(runtime, tool)).toBe(10);
  });

  // Last: they move the store's clock past every ID token made before.
  const authTimeOf = (idToken: string) =>
    (JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()) as { auth_time: number }).auth_time * 1000;
  const setClock = (at: number) => runtime.advance(at - runtime.deps.now().getTime());

  it('accepts a re-authentication just under 5 minutes old', async () => {
    const user = await newUser('Quick');
    const idToken = await user.fresh();
    setClock(authTimeOf(idToken) + REAUTH_MAX_AGE_MS - 2000);
    expect((await deleteAccount(user, idToken)).status).toBe(200);
  });

  it('refuses a re-authentication older than 5 minutes (403) and changes nothing', async () => {
    const user = await newUser('Stella');
    const idToken = await user.fresh();
    setClock(authTimeOf(idToken) + REAUTH_MAX_AGE_MS + 1000);
    const before = await snapshot(runtime);
    const res = await deleteAccount(user, idToken);
    expectApiError(res, 403);
    expect(res.data.error).toEqual({ code: 'reauthentication_required', message: messages.reauthenticationRequired });
    expect(await snapshot(runtime)).toEqual(before);
    expect(await signInAccounts(user.uid)).toHaveLength(1);
  });
});
