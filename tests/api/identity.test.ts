// Identity and roles (issue 12): a role above user needs a verified email, a user row and its orders
// belong to one Firebase account, and a sign-in account that cannot be deleted is never silently kept.
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { firebaseIdentity, type Identity } from '../../src/server/auth/identity';
import { DEMO_ADMIN, loadConfig, startupConfigWarnings } from '../../src/server/config';
import { seedIfEmpty } from '../../src/server/db/seed';
import { logger } from '../../src/server/observability/logger';
import { ADMIN, PROJECT_ID, createTestRuntime, emulatorAdmin, idTokenFor, type TestRuntime } from './harness';
import { expectApiError, makeTool, placeOrder } from './helpers';

const CLAIMED = 'claimed@test.example';
const CHIEF = 'chief@test.example';
let runtime: TestRuntime;
let admin: string;

/** Our access token through the real exchange, for a fresh (uncached) ID token. */
async function exchange(email: string, idToken: string): Promise<string> {
  const res = await runtime.request('PUT', `/api/user/${email}`, { token: idToken, json: { email } });
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return res.data.token;
}
const uidOf = (idToken: string) =>
  JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()).user_id as string;
const adminSays = async (email: string, token: string) =>
  (await runtime.request('GET', `/api/admin/${email}`, { token })).data.admin;
const canAdminister = async (token: string) => (await runtime.request('GET', '/api/allusers', { token })).status;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { ADMIN_EMAILS: `${ADMIN},${CLAIMED},${CHIEF}` } });
  admin = await runtime.tokenFor(ADMIN);
});
afterAll(() => runtime.close());

describe('roles need a verified email', () => {
  it('an unverified password account for an ADMIN_EMAILS address stays a user; once verified, the next exchange makes it admin', async () => {
    const token = await exchange(CLAIMED, await idTokenFor(CLAIMED, 'Claimer', { verified: false }));
    expect(await adminSays(CLAIMED, token)).toBe(false);
    expect(await canAdminister(token)).toBe(403);
    expect((await runtime.request('PUT', `/api/allusers/makeadmin/${CLAIMED}`, { token })).status).toBe(403);
    expect((await runtime.request('GET', `/api/userprofile/${CLAIMED}`, { token })).data.role).toBe('user');

    const verified = await exchange(CLAIMED, await idTokenFor(CLAIMED));
    expect(await adminSays(CLAIMED, verified)).toBe(true);
    expect(await canAdminister(verified)).toBe(200);
  });

  it('the seeded demo admin row, claimed by an unverified account, is not an admin', async () => {
    const [seeded] = await runtime.db.query<{ role: string; firebase_uid: string | null }>(
      'SELECT role, firebase_uid FROM users WHERE email = $1',
      [DEMO_ADMIN.email],
    );
    expect(seeded).toEqual({ role: 'admin', firebase_uid: null });
    const token = await exchange(DEMO_ADMIN.email, await idTokenFor(DEMO_ADMIN.email, 'Mallory', { verified: false }));
    expect(await adminSays(DEMO_ADMIN.email, token)).toBe(false);
    expect(await canAdminister(token)).toBe(403);
    expect(await adminSays(DEMO_ADMIN.email, admin)).toBe(false);
  });

  it('an admin whose email is no longer verified loses the admin powers until it is again', async () => {
    // Its own admin: the shared ADMIN account is used by other files at the same time.
    const chiefToken = await exchange(CHIEF, await idTokenFor(CHIEF));
    expect(await canAdminister(chiefToken)).toBe(200);
    const unverified = await exchange(CHIEF, await idTokenFor(CHIEF, undefined, { verified: false }));
    expect(await adminSays(CHIEF, unverified)).toBe(false);
    expect(await canAdminister(unverified)).toBe(403);
    // The same account's older token too: the role is read per request.
    expect(await canAdminister(chiefToken)).toBe(403);
    const again = await exchange(CHIEF, await idTokenFor(CHIEF));
    expect(await canAdminister(again)).toBe(200);
    expect(await canAdminister(chiefToken)).toBe(200);
  });
});

describe('a user row belongs to one sign-in account', () => {
  it('an account made again for the same email inherits neither the role, the profile nor the orders; the old tokens stop', async () => {
    const email = 'phoenix@test.example';
    const firstId = await idTokenFor(email);
    const first = await exchange(email, firstId);
    expect((await runtime.request('PUT', `/api/allusers/makeadmin/${email}`, { token: admin })).status).toBe(200);
    expect(
      (
        await runtime.request('PUT', `/api/userupdate/${email}`, {
          token: first,
          json: {
            name: 'Phoenix',
            education: 'MSc',
            social: 'https://example.com/p',
            phoneNumber: '01712345678',
            address: '1 Ash Road, Dhaka',
          },
        })
      ).status,
    ).toBe(200);
    const toolId = await makeTool(runtime, admin, { availableQuantity: 100 });
    const orderId = await placeOrder(runtime, first, toolId);

    // The sign-in account is deleted outside the store (Firebase console), and someone signs up with the address.
    await emulatorAdmin('delete', { localId: uidOf(firstId) });
    const secondId = await idTokenFor(email, 'Newcomer');
    expect(uidOf(secondId)).not.toBe(uidOf(firstId));
    const second = await exchange(email, secondId);

    expect(await adminSays(email, second)).toBe(false);
    expect(await canAdminister(second)).toBe(403);
    expect((await runtime.request('GET', `/api/userprofile/${email}`, { token: second })).data).toMatchObject({
      name: 'Newcomer',
      education: '',
      social: '',
      phoneNumber: '',
      address: '',
      role: 'user',
    });
    expect((await runtime.request('GET', `/api/booking/email/${email}`, { token: second })).data).toEqual([]);
    expectApiError(await runtime.request('GET', `/api/booking/${orderId}`, { token: second }), 403);
    expectApiError(
      await runtime.request('POST', '/api/create-payment-intent', { token: second, json: { orderId } }),
      403,
    );
    expectApiError(await runtime.request('DELETE', `/api/booking/dlt/${orderId}`, { token: second }), 403);
    // The first account's token no longer works for the address.
    expectApiError(await runtime.request('GET', `/api/admin/${email}`, { token: first }), 401);
    // The shop's books keep the order under the email.
    expect(
      (await runtime.request('GET', `/api/booking/email/${email}`, { token: admin })).data.map(
        (o: { _id: string }) => o._id,
      ),
    ).toEqual([orderId]);
    // The new account's own orders are its own.
    const own = await placeOrder(runtime, second, toolId);
    expect(
      (await runtime.request('GET', `/api/booking/email/${email}`, { token: second })).data.map(
        (o: { _id: string }) => o._id,
      ),
    ).toEqual([own]);
  });
});

describe('deleting a user whose sign-in account cannot be deleted', () => {
  let failing = true;
  let withStub: TestRuntime;
  beforeAll(async () => {
    const real = firebaseIdentity(
      loadConfig({
        NODE_ENV: 'test',
        PUBLIC_FIREBASE_PROJECT_ID: PROJECT_ID,
        FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      }),
    );
    const identity: Identity = {
      verifyIdToken: (idToken) => real.verifyIdToken(idToken),
      async deleteAccount(uid) {
        if (failing) throw Object.assign(new Error('Firebase is unreachable'), { code: 'app/network-error' });
        await real.deleteAccount(uid);
      },
    };
    withStub = await createTestRuntime({ identity });
  });
  afterAll(() => withStub.close());

  it('answers 502 with the reason, logs it and keeps the user (so no sign-in account is left without a record); a retry deletes', async () => {
    const adminToken = await withStub.tokenFor(ADMIN);
    const email = 'stuck@test.example';
    const token = await withStub.tokenFor(email);
    const logged = vi.spyOn(logger, 'error');

    const res = await withStub.request('DELETE', `/api/allusers/dlt/${email}`, { token: adminToken });
    expect(res.status).toBe(502);
    expect(res.data.error.code).toBe('identity_unavailable');
    expect(res.data.error.message).toMatch(/sign-in account could not be deleted.*app\/network-error/);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ email }),
      expect.stringContaining('could not delete the sign-in account'),
    );
    logged.mockRestore();
    expect((await withStub.request('GET', `/api/userprofile/${email}`, { token: adminToken })).status).toBe(200);
    expect((await withStub.request('GET', `/api/admin/${email}`, { token })).status).toBe(200);

    failing = false;
    expect((await withStub.request('DELETE', `/api/allusers/dlt/${email}`, { token: adminToken })).status).toBe(200);
    expectApiError(await withStub.request('GET', `/api/admin/${email}`, { token }), 401);
  });

  it('a sign-in account already gone is no failure', async () => {
    const adminToken = await withStub.tokenFor(ADMIN);
    const email = 'gone@test.example';
    const idToken = await idTokenFor(email);
    await withStub.tokenFor(email);
    await emulatorAdmin('delete', { localId: uidOf(idToken) });
    expect((await withStub.request('DELETE', `/api/allusers/dlt/${email}`, { token: adminToken })).status).toBe(200);
  });
});

describe('demo accounts and admins outside the emulator', () => {
  it('an empty store seeds the demo accounts only in emulator mode', async () => {
    const reseed = async (demoAccounts: boolean) => {
      for (const table of ['payments', 'orders', 'reviews', 'tools', 'users'])
        await runtime.db.query(`DELETE FROM ${table}`);
      await seedIfEmpty(runtime.db, { demoAccounts });
      return (await runtime.db.query<{ email: string }>('SELECT email FROM users ORDER BY email')).map((u) => u.email);
    };
    expect(await reseed(false)).toEqual([]);
    expect((await runtime.db.query('SELECT id FROM tools')).length).toBeGreaterThan(0);
    expect(await reseed(true)).toEqual([DEMO_ADMIN.email, 'shopper@ironcrest.test']);
    // The server passes config.emulator: false with a real Firebase project.
    expect(
      loadConfig({ PUBLIC_FIREBASE_API_KEY: 'AIza-real', PUBLIC_FIREBASE_PROJECT_ID: 'ironcrest-prod' }).emulator,
    ).toBe(false);
  });

  it('warns at start when a real project has no ADMIN_EMAILS', () => {
    // With SMTP_URL set: a production store without it is warned about too (the after-sale's emails).
    const real = {
      NODE_ENV: 'production',
      PUBLIC_FIREBASE_API_KEY: 'AIza-real',
      PUBLIC_FIREBASE_PROJECT_ID: 'ironcrest-prod',
      SMTP_URL: 'smtp://mail.shop.example:587',
    };
    expect(startupConfigWarnings(loadConfig(real))).toEqual([expect.stringContaining('ADMIN_EMAILS is not set')]);
    expect(startupConfigWarnings(loadConfig({ ...real, ADMIN_EMAILS: 'owner@shop.example' }))).toEqual([]);
    expect(startupConfigWarnings(loadConfig({}))).toEqual([]);
    const { SMTP_URL: _smtp, ...noMail } = real;
    expect(startupConfigWarnings(loadConfig({ ...noMail, ADMIN_EMAILS: 'owner@shop.example' }))).toEqual([
      expect.stringContaining('SMTP_URL is not set'),
    ]);
  });
});
