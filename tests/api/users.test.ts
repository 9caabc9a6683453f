// Users: profile read and update, roles, deletion, and the store never losing its last admin.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { signAccessToken } from '../../src/server/auth/jwt';
import { ADMIN, ALICE, createTestRuntime, idTokenFor, type TestRuntime } from './harness';
import { ADDRESS, expectApiError, makeTool, placeOrder } from './helpers';

const BOSS = 'boss@test.example';
let runtime: TestRuntime;
let admin: string;
let alice: string;
const profile = async (email: string) =>
  (await runtime.request('GET', `/api/userprofile/${email}`, { token: admin })).data;
const isAdmin = async (email: string) =>
  (await runtime.request('GET', `/api/admin/${email}`, { token: admin })).data.admin;

beforeAll(async () => {
  // ADMIN_EMAILS as an operator would write it: spaces and capitals.
  runtime = await createTestRuntime({ env: { ADMIN_EMAILS: `${ADMIN}, Boss@Test.Example` } });
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
});
afterAll(() => runtime.close());

describe('profile', () => {
  it('reads the profile with an ISO sign-up date and role user', async () => {
    const { status, data } = await runtime.request('GET', `/api/userprofile/${ALICE}`, { token: alice });
    expect(status).toBe(200);
    expect(data).toMatchObject({ email: ALICE, education: '', social: '', phoneNumber: '', address: '', role: 'user' });
    expect(Date.now() - Date.parse(data.signUpDate)).toBeLessThan(10 * 60_000);
  });

  it('updates the profile; unknown fields, email, role and sign-up date in the body are ignored', async () => {
    const before = await profile(ALICE);
    const res = await runtime.request('PUT', `/api/userupdate/${ALICE}`, {
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
    expectApiError(await runtime.request('GET', '/api/userprofile/mallory@evil.example', { token: admin }), 404);
    expect(await isAdmin(ALICE)).toBe(false);
  });

  it('signing in again keeps the profile and never takes a role or name from the body', async () => {
    const before = await profile(ALICE);
    const res = await runtime.request('PUT', `/api/user/${ALICE}`, {
      token: await idTokenFor(ALICE),
      json: { email: ALICE, role: 'admin', name: 'Root' },
    });
    expect(res.status).toBe(200);
    expect(await profile(ALICE)).toEqual(before);
  });

  it('an email in the path matches whatever its case', async () => {
    expect((await runtime.request('GET', `/api/userprofile/${ALICE.toUpperCase()}`, { token: alice })).data.email).toBe(
      ALICE,
    );
  });
});

describe('roles', () => {
  it('ADMIN_EMAILS promotes on the first token (case-insensitive); other users start as users', async () => {
    expect(await runtime.db.query('SELECT email FROM users WHERE email = $1', [BOSS])).toEqual([]);
    const boss = await runtime.tokenFor(BOSS);
    expect((await runtime.request('GET', `/api/admin/${BOSS}`, { token: boss })).data).toEqual({ admin: true });
    expect((await runtime.request('GET', '/api/allusers', { token: boss })).status).toBe(200);
    expect(await isAdmin(ADMIN)).toBe(true);
    const newcomer = 'newcomer@test.example';
    await runtime.tokenFor(newcomer);
    expect(await isAdmin(newcomer)).toBe(false);
  });

  it('make admin promotes a user, who can then use the admin calls; repeating it is harmless; nobody is 404', async () => {
    const carol = 'carol@test.example';
    const token = await runtime.tokenFor(carol);
    expect((await runtime.request('GET', '/api/allusers', { token })).status).toBe(403);
    expect((await runtime.request('PUT', `/api/allusers/makeadmin/${carol}`, { token: admin })).status).toBe(200);
    expect((await runtime.request('GET', '/api/allusers', { token })).status).toBe(200);
    expect((await runtime.request('PUT', `/api/allusers/makeadmin/${carol}`, { token: admin })).status).toBe(200);
    expect(await isAdmin(carol)).toBe(true);
    expectApiError(await runtime.request('PUT', '/api/allusers/makeadmin/nobody@test.example', { token: admin }), 404);
  });
});

describe('deleting users', () => {
  it("removes the user and their sign-in, keeps their orders and reviews for the shop's books", async () => {
    const dave = 'dave@test.example';
    const idToken = await idTokenFor(dave);
    const token = await runtime.tokenFor(dave);
    const toolId = await makeTool(runtime, admin);
    const orderId = await placeOrder(runtime, token, toolId, 2);
    const review = await runtime.request('POST', '/api/review', {
      token,
      json: { name: 'Dave', Messege: 'Sturdy.', ratings: 5 },
    });
    expect(review.status).toBe(201);

    expect((await runtime.request('DELETE', `/api/allusers/dlt/${dave}`, { token: admin })).status).toBe(200);
    expectApiError(await runtime.request('GET', `/api/userprofile/${dave}`, { token: admin }), 404);
    expect(
      (await runtime.request('GET', '/api/allusers', { token: admin })).data.map((u: { email: string }) => u.email),
    ).not.toContain(dave);
    // Their access token stops working at once, and the ID token they still hold no longer signs them back in.
    expectApiError(await runtime.request('GET', `/api/admin/${dave}`, { token }), 401);
    expectApiError(await runtime.request('PUT', `/api/user/${dave}`, { token: idToken, json: { email: dave } }), 401);
    // What they bought and wrote stays.
    const orders = (await runtime.request('GET', `/api/booking/email/${dave}`, { token: admin })).data;
    expect(orders.map((o: { _id: string }) => o._id)).toEqual([orderId]);
    expect((await runtime.request('GET', `/api/booking/${orderId}`, { token: admin })).data).toMatchObject({
      email: dave,
      quantity: 2,
    });
    const reviews = (await runtime.request('GET', '/api/reviews/moderation?limit=100&pageNumber=0', { token: admin }))
      .data.services;
    expect(reviews.find((r: { _id: string }) => r._id === review.data.insertedId)).toMatchObject({
      addedBy: dave,
      Messege: 'Sturdy.',
    });
    expectApiError(await runtime.request('DELETE', `/api/allusers/dlt/${dave}`, { token: admin }), 404);
  });

  it('an admin who is not an owner can neither make nor remove admins (403); users they may still delete', async () => {
    const erin = 'erin@test.example';
    const frank = 'frank@test.example';
    const erinToken = await runtime.tokenFor(erin);
    await runtime.tokenFor(frank);
    expect((await runtime.request('PUT', `/api/allusers/makeadmin/${erin}`, { token: admin })).status).toBe(200);
    expectApiError(await runtime.request('PUT', `/api/allusers/makeadmin/${frank}`, { token: erinToken }), 403);
    expect(await isAdmin(frank)).toBe(false);
    expectApiError(await runtime.request('DELETE', `/api/allusers/dlt/${erin}`, { token: erinToken }), 403);
    for (const owner of [ADMIN, BOSS])
      expectApiError(await runtime.request('DELETE', `/api/allusers/dlt/${owner}`, { token: erinToken }), 403);
    expect(await isAdmin(erin)).toBe(true);
    expect((await runtime.request('DELETE', `/api/allusers/dlt/${frank}`, { token: erinToken })).status).toBe(200);
    // An owner removes the admin.
    expect((await runtime.request('DELETE', `/api/allusers/dlt/${erin}`, { token: admin })).status).toBe(200);
  });

  it('owners (ADMIN_EMAILS) cannot be deleted, not by another owner, not by themselves', async () => {
    const boss = await runtime.tokenFor(BOSS);
    for (const [token, owner] of [
      [admin, BOSS],
      [boss, ADMIN],
      [admin, ADMIN],
      [boss, BOSS],
    ])
      expectApiError(await runtime.request('DELETE', `/api/allusers/dlt/${owner}`, { token }), 403);
    expect(await isAdmin(ADMIN)).toBe(true);
    expect(await isAdmin(BOSS)).toBe(true);
  });

  it('deletes at once, by every admin of every admin, never leave the store without an admin, and never a 5xx', async () => {
    onTestFinished(async () => {
      await runtime.db.query(`UPDATE users SET role = 'admin' WHERE email = $1`, [ADMIN]);
      runtime.usersWritten();
    });
    for (let round = 0; round < 6; round++) {
      const helpers = ['x', 'y', 'z'].map((n) => `${n}${round}@race.example`);
      await runtime.db.query(
        `INSERT INTO users (email, name, role, email_verified) SELECT unnest($1::text[]), 'Helper', 'admin', true`,
        [helpers],
      );
      runtime.usersWritten();
      const everyone = [ADMIN, BOSS, ...helpers];
      const tokens = [
        admin,
        await runtime.tokenFor(BOSS),
        ...(await Promise.all(helpers.map((e) => signAccessToken(runtime.deps.jwtSecret, e)))),
      ];
      const calls = tokens.flatMap((token) =>
        everyone.map((email) => runtime.request('DELETE', `/api/allusers/dlt/${email}`, { token })),
      );
      const results = await Promise.all(calls);
      expect(
        results.filter((r) => r.status >= 500),
        JSON.stringify(results.map((r) => r.data)),
      ).toEqual([]);
      const admins = (
        await runtime.db.query<{ email: string }>(`SELECT email FROM users WHERE role = 'admin' ORDER BY email`)
      ).map((r) => r.email);
      expect(admins).toEqual(expect.arrayContaining([ADMIN, BOSS]));
      for (const helper of helpers) expect(admins).not.toContain(helper);
    }
  });

  it('the last admin cannot be removed (409), even by an owner when it is the only admin who can act', async () => {
    // An owner whose row is not an admin any more (ADMIN_EMAILS changed after the fact) cannot act; the
    // one acting admin who is left is kept.
    onTestFinished(async () => {
      await runtime.db.query(`UPDATE users SET role = 'admin' WHERE email = ANY($1)`, [[ADMIN, BOSS]]);
      runtime.usersWritten();
    });
    const last = 'last@test.example';
    await runtime.db.query(`INSERT INTO users (email, name, role, email_verified) VALUES ($1, 'Last', 'admin', true)`, [
      last,
    ]);
    await runtime.db.query(`UPDATE users SET role = 'user' WHERE email = $1`, [BOSS]);
    runtime.usersWritten();
    // ADMIN (an owner and an admin) and `last` can act; removing `last` leaves ADMIN: allowed.
    expect((await runtime.request('DELETE', `/api/allusers/dlt/${last}`, { token: admin })).status).toBe(200);
    expect(await isAdmin(ADMIN)).toBe(true);
  });
});
