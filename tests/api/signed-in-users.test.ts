// The signed-in check keeps users' rows in memory (users/user-rules.ts, issue 30): a statement and a round
// trip less per signed-in request, and still every role given, account deleted or account made again
// counts on the very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { ADMIN, createTestRuntime, idTokenFor, type TestRuntime } from './harness';

const CAROL = 'carol-kept@test.example';
const DAN = 'dan-kept@test.example';
let runtime: TestRuntime;
let admin: string;
let lookups = 0;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  const db = runtime.db as Db & Record<string, unknown>;
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('FROM users WHERE email = ANY')) lookups++;
    return query(sql, params);
  }) as Db['query'];
});
afterAll(() => runtime.close());

const profileOf = (email: string, token: string) => runtime.request('GET', `/api/userprofile/${email}`, { token });

describe('the signed-in user, kept in memory', () => {
  it('is read once, not on every request', async () => {
    const carol = await runtime.tokenFor(CAROL);
    expect((await profileOf(CAROL, carol)).status).toBe(200);
    lookups = 0;
    for (let i = 0; i < 5; i++) expect((await profileOf(CAROL, carol)).status).toBe(200);
    expect(lookups).toBe(0);
  });

  it('made an admin: the next request is an admin’s', async () => {
    const carol = await runtime.tokenFor(CAROL);
    expect((await runtime.request('GET', '/api/allusers', { token: carol })).status).toBe(403);
    expect((await runtime.request('PUT', `/api/allusers/makeadmin/${CAROL}`, { token: admin })).status).toBe(200);
    expect((await runtime.request('GET', '/api/allusers', { token: carol })).status).toBe(200);
  });

  it('deleted: the next request with its token is refused; signed up again: the new token works, the old one never', async () => {
    const old = await runtime.tokenFor(DAN);
    expect((await profileOf(DAN, old)).status).toBe(200);
    expect((await runtime.request('DELETE', `/api/allusers/dlt/${DAN}`, { token: admin })).status).toBe(200);
    expect((await profileOf(DAN, old)).status).toBe(401);
    // The same address signed up again (the deletion removed its sign-in account): a new Firebase account.
    const res = await runtime.request('PUT', `/api/user/${DAN}`, {
      token: await idTokenFor(DAN),
      json: { email: DAN },
    });
    expect(res.status).toBe(200);
    expect((await profileOf(DAN, res.data.token)).status).toBe(200);
    expect((await profileOf(DAN, old)).status).toBe(401);
  });

  it('a profile update: the next request reads the row again (the name it acts under)', async () => {
    const carol = await runtime.tokenFor(CAROL);
    await profileOf(CAROL, carol);
    const update = await runtime.request('PUT', `/api/userupdate/${CAROL}`, {
      token: carol,
      json: { name: 'Carol Kept', education: '', social: '', phoneNumber: '', address: '' },
    });
    expect(update.status, JSON.stringify(update.data)).toBe(200);
    lookups = 0;
    expect((await profileOf(CAROL, carol)).data.name).toBe('Carol Kept');
    expect(lookups).toBe(1);
  });
});
