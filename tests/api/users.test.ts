// Users: profile read and update, roles, deletion, and the store never losing its last admin.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { signAccessToken } from '../../src/server/auth/jwt';
import { ADMIN, ALICE, createTestStore, idTokenFor, type TestStore } from './harness';
import { ADDRESS, expectApiError, makeTool, placeOrder } from './helpers';

const BOSS = 'boss@test.example';
let store: TestStore;
let admin: string;
let alice: string;
const profile = async (email: string) => (await store.request('GET', `/api/userprofile/${email}`, { token: admin })).data;
const isAdmin = async (email: string) => (await store.request('GET', `/api/admin/${email}`, { token: admin })).data.admin;

beforeAll(async () => {
  // ADMIN_EMAILS as an operator would write it: spaces and capitals.
  store = await createTestStore({ env: { ADMIN_EMAILS: `${ADMIN}, Boss@Test.Example` } });
  admin = await store.tokenFor(ADMIN);
  alice = await store.tokenFor(ALICE);
});
afterAll(() => store.close());

describe('profile', () => {
  it('reads the profile with an ISO sign-up date and role user', async () => {
    const { status, data } = await store.request('GET', `/api/userprofile/${ALICE}`, { token: alice });
    expect(status).toBe(200);
    expect(data).toMatchObject({ email: ALICE, education: '', social: '', phoneNumber: '', address: '', role: 'user' });
    expect(Date.now() - Date.parse(data.signUpDate)).toBeLessThan(10 * 60_000);
  });

  it('updates the profile; unknown fields, email, role and sign-up date in the body are ignored', async () => {
    const before = await profile(ALICE);
    const res = await store.request('PUT', `/api/userupdate/${ALICE}`, {
      token: alice,
      json: {
        name: '  Alice Anwar  ',
        education: 'BSc Mechanical Engineering',
        social: 'https://www.linkedin.com/in/alice',
        phoneNumber: 8801712345678,
        address: ADDRESS,
        email: 'mallory@evil.example',
        role: 'admin',
        signUpDate: '2000-01-01T00:00:00.000Z',
        firebase_uid: 'stolen',
      },
    });
    expect(res.status).toBe(200);
    expect(await profile(ALICE)).toEqual({
      email: ALICE,
      name: 'Alice Anwar',
      education: 'BSc Mechanical Engineering',
      social: 'https://www.linkedin.com/in/alice',
      phoneNumber: '8801712345678',
      address: ADDRESS,
      signUpDate: before.signUpDate,
      role: 'user',
    });
    expectApiError(await store.request('GET', '/api/userprofile/mallory@evil.example', { token: admin }), 404);
    expect(await isAdmin(ALICE)).toBe(false);
  });

  it('signing in again keeps the profile and never takes a role or name from the body', async () => {
    const before = await profile(ALICE);
    const res = await store.request('PUT', `/api/user/${ALICE}`, { token: await idTokenFor(ALICE), json: { email: ALICE, role: 'admin', name: 'Root' } });
    expect(res.status).toBe(200);
    expect(await profile(ALICE)).toEqual(before);
  });

  it('an email in the path matches whatever its case', async () => {
    expect((await store.request('GET', `/api/userprofile/${ALICE.toUpperCase()}`, { token: alice })).data.email).toBe(ALICE);
  });
});

describe('roles', () => {
  it('ADMIN_EMAILS promotes on the first token (case-insensitive); other users start as users', async () => {
    expect(await store.db.query('SELECT email FROM users WHERE email = $1', [BOSS])).toEqual([]);
    const boss = await store.tokenFor(BOSS);
    expect((await store.request('GET', `/api/admin/${BOSS}`, { token: boss })).data).toEqual({ admin: true });
    expect((await store.request('GET', '/api/allusers', { token: boss })).status).toBe(200);
    expect(await isAdmin(ADMIN)).toBe(true);
    const newcomer = 'newcomer@test.example';
    await store.tokenFor(newcomer);
    expect(await isAdmin(newcomer)).toBe(false);
  });

  it('make admin promotes a user, who can then use the admin calls; repeating it is harmless; nobody is 404', async () => {
    const carol = 'carol@test.example';
    const token = await store.tokenFor(carol);
    expect((await store.request('GET', '/api/allusers', { token })).status).toBe(403);
    expect((await store.request('PUT', `/api/allusers/makeadmin/${carol}`, { token: admin })).status).toBe(200);
    expect((await store.request('GET', '/api/allusers', { token })).status).toBe(200);
    expect((await store.request('PUT', `/api/allusers/makeadmin/${carol}`, { token: admin })).status).toBe(200);
    expect(await isAdmin(carol)).toBe(true);
    expectApiError(await store.request('PUT', '/api/allusers/makeadmin/nobody@test.example', { token: admin }), 404);
  });
});

describe('deleting users', () => {
  it("removes the user and their sign-in, keeps their orders and reviews for the shop's books", async () => {
    const dave = 'dave@test.example';
    const idToken = await idTokenFor(dave);
    const token = await store.tokenFor(dave);
    const toolId = await makeTool(store, admin);
    const orderId = await placeOrder(store, token, toolId, 2);
    const review = await store.request('POST', '/api/review', { token, json: { name: 'Dave', Messege: 'Sturdy.', ratings: 5 } });
    expect(review.status).toBe(201);

    expect((await store.request('DELETE', `/api/allusers/dlt/${dave}`, { token: admin })).status).toBe(200);
    expectApiError(await store.request('GET', `/api/userprofile/${dave}`, { token: admin }), 404);
    expect((await store.request('GET', '/api/allusers', { token: admin })).data.map((u: { email: string }) => u.email)).not.toContain(dave);
    // Their access token stops working at once, and the ID token they still hold no longer signs them back in.
    expectApiError(await store.request('GET', `/api/admin/${dave}`, { token }), 401);
    expectApiError(await store.request('PUT', `/api/user/${dave}`, { token: idToken, json: { email: dave } }), 401);
    // What they bought and wrote stays.
    const orders = (await store.request('GET', `/api/booking/email/${dave}`, { token: admin })).data;
    expect(orders.map((o: { _id: string }) => o._id)).toEqual([orderId]);
    expect((await store.request('GET', `/api/booking/${orderId}`, { token: admin })).data).toMatchObject({ email: dave, quantity: 2 });
    const reviews = (await store.request('GET', '/api/reviews/moderation?limit=100&pageNumber=0', { token: admin })).data.services;
    expect(reviews.find((r: { _id: string }) => r._id === review.data.insertedId)).toMatchObject({ addedBy: dave, Messege: 'Sturdy.' });
    expectApiError(await store.request('DELETE', `/api/allusers/dlt/${dave}`, { token: admin }), 404);
  });

  it('two admins deleting each other at once always leave exactly one admin, and never a 5xx', async () => {
    // Rounds of a fresh pair of admins (the only admins), each deleting the other at the same moment.
    onTestFinished(async () => {
      await store.db.query(`UPDATE users SET role = 'admin' WHERE email = $1`, [ADMIN]);
    });
    for (let round = 0; round < 12; round++) {
      const [x, y] = ['x', 'y'].map((n) => `${n}${round}@race.example`);
      await store.db.query(`UPDATE users SET role = 'user' WHERE role = 'admin'`);
      await store.db.query(`INSERT INTO users (email, name, role, email_verified) VALUES ($1, 'X', 'admin', true), ($2, 'Y', 'admin', true)`, [x, y]);
      const [tx, ty] = await Promise.all([x, y].map((e) => signAccessToken(store.deps.jwtSecret, e)));
      const results = await Promise.all([
        store.request('DELETE', `/api/allusers/dlt/${y}`, { token: tx }),
        store.request('DELETE', `/api/allusers/dlt/${x}`, { token: ty }),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0], JSON.stringify(results.map((r) => r.data))).toBe(200);
      expect([401, 409], JSON.stringify(results.map((r) => r.data))).toContain(statuses[1]);
      expect(await store.db.query(`SELECT email FROM users WHERE role = 'admin'`)).toHaveLength(1);
    }
  });

  it('the last admin cannot be deleted (409), not even by themself', async () => {
    await store.request('PUT', `/api/allusers/makeadmin/${ALICE}`, { token: admin });
    const admins = (await store.request('GET', '/api/allusers', { token: admin })).data.filter((u: { role: string }) => u.role === 'admin');
    expect(admins.length).toBeGreaterThan(1);
    for (const { email } of admins.filter((u: { email: string }) => u.email !== ADMIN)) {
      expect((await store.request('DELETE', `/api/allusers/dlt/${email}`, { token: admin })).status).toBe(200);
    }
    expectApiError(await store.request('DELETE', `/api/allusers/dlt/${ADMIN}`, { token: admin }), 409);
    expect((await store.request('GET', `/api/admin/${ADMIN}`, { token: admin })).data).toEqual({ admin: true });
  });
});
