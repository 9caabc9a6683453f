// Several servers on one PostgreSQL (issue: the production topology): each "server" here is its own
// app, pool and LISTEN connection on one shared schema, as N processes behind a proxy would be.
// Plus the database as a dependency that fails: terminated connections, an unreachable server.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { firebaseIdentity } from '../../src/server/auth/identity';
import { postgresBus, memoryBus, notifyOn, type ChangeBus } from '../../src/server/caching/changes';
import { loadConfig } from '../../src/server/config';
import { type Db } from '../../src/server/db/client';
import { openDb } from '../../src/server/db/open';
import { migrate } from '../../src/server/db/migrate';
import { postgresRateLimitStore } from '../../src/server/db/rate-limit-store';
import { seedIfEmpty } from '../../src/server/db/seed';
import { memoryRateLimitStore } from '../../src/server/http/rate-limit';
import { databaseImageStorage } from '../../src/server/images/storage';
import { sandboxGateway } from '../../src/server/payments/sandbox';
import { ADMIN, ALICE, PROJECT_ID, idTokenFor } from './harness';
import { tinyPng } from './images.fixtures';
import type { RateLimitStore } from '../../src/server/ports';

const url = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
const quiet = { warn: () => {}, info: () => {} };
const secret = randomBytes(32).toString('hex');

function configFor(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'ironcrest-topology-')),
    ADMIN_EMAILS: ADMIN,
    PUBLIC_FIREBASE_PROJECT_ID: PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
    JWT_SECRET: secret,
    ...env,
  });
}

/** The API over db, as store.ts builds it for PostgreSQL (uploads in the database). */
function appOn(db: Db, shared: { rateLimits: RateLimitStore; changes: ChangeBus }, env: Record<string, string> = {}) {
  const config = configFor(env);
  return createApp({
    db,
    config,
    jwtSecret: new TextEncoder().encode(secret),
    identity: firebaseIdentity(config),
    payments: sandboxGateway(db),
    images: databaseImageStorage(db),
    ...shared,
    now: () => new Date(),
  });
}

/** One server of the cluster: its own pool (named, so a test can cut its connections) and listener. */
async function server(schema: string, name: string, env: Record<string, string> = {}) {
  const db = await openDb({ databaseUrl: url!, schema, applicationName: name });
  const changes: ChangeBus = postgresBus({
    connect: () => new pg.Client({ connectionString: url, application_name: `${name}-listen` }),
    notify: notifyOn(db),
    log: quiet,
  });
  const { app, tools } = appOn(db, { rateLimits: postgresRateLimitStore(db), changes }, env);
  async function request(
    method: string,
    target: string,
    init: { token?: string; json?: unknown; body?: BodyInit; ip?: string } = {},
  ) {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const response = await app.request(
      target,
      { method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body },
      { clientAddress: init.ip ?? '127.0.0.1' },
    );
    const text = await response.text();
    let data: any = text;
    try {
      data = JSON.parse(text);
    } catch {
      /* not JSON (an image) */
    }
    return { status: response.status, data, headers: response.headers };
  }
  const tokenFor = async (email: string) => {
    const res = await request('PUT', `/api/user/${email}`, { token: await idTokenFor(email), json: { email } });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    return res.data.token as string;
  };
  return { db, tools, changes, request, tokenFor, close: async () => (await changes.close(), await db.close()) };
}

/** Polls until check passes or ms run out; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

describe.skipIf(!url)('several servers on one PostgreSQL', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let one: Awaited<ReturnType<typeof server>>;
  let two: Awaited<ReturnType<typeof server>>;
  let admin: string;

  beforeAll(async () => {
    const setup = await openDb({ databaseUrl: url!, schema });
    await migrate(setup);
    await seedIfEmpty(setup);
    await setup.close();
    one = await server(schema, `${schema}-1`, { SIGN_IN_RATE_LIMIT: '4' });
    two = await server(schema, `${schema}-2`, { SIGN_IN_RATE_LIMIT: '4' });
    admin = await one.tokenFor(ADMIN);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    const cleanup = await openDb({ databaseUrl: url! });
    await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
    await cleanup.close();
  });

  it('a tool added on one server is in the catalogue of the other within 1 s, and gone within 1 s once deleted', async () => {
    await two.request('GET', '/api/tools'); // warm: server two serves the catalogue from memory now
    const created = await one.request('POST', '/api/tools', {
      token: admin,
      json: {
        name: 'Cluster hammer',
        description: 'Made on server one.',
        price: 20,
        minimumOrderQuantity: 1,
        availableQuantity: 5,
        img: '/images/tools/ball-peen-hammer.svg',
      },
    });
    expect(created.status).toBe(201);
    const id = created.data.insertedId;
    const listed = async () => (await two.request('GET', '/api/tools')).data.some((t: { _id: string }) => t._id === id);
    expect(await within(1000, listed)).toBeLessThan(1000);
    expect(await within(1000, async () => two.tools.exists(id) === true)).toBeLessThan(1000);
    expect((await one.request('DELETE', `/api/tools/dlt/${id}`, { token: admin })).status).toBe(200);
    await within(1000, async () => !(await listed()) && two.tools.exists(id) === false);
    expect((await two.request('GET', `/api/tools/${id}`)).status).toBe(404);
  });

  it('stock taken on one server shows on the other (no stale public read), the notification naming the tool', async () => {
    const [tool] = (await two.request('GET', '/api/tools')).data;
    const heard: [string, readonly string[] | undefined][] = [];
    const off = two.changes.subscribe((change, tools) => heard.push([change, tools]));
    const alice = await one.tokenFor(ALICE);
    const placed = await one.request('POST', '/api/booking', {
      token: alice,
      json: {
        toolId: tool._id,
        quantity: tool.minimumOrderQuantity,
        address: '12 Forge Lane, Dhaka 1207',
        phone: '01712345678',
      },
    });
    expect(placed.status, JSON.stringify(placed.data)).toBe(201);
    await within(
      1000,
      async () =>
        (await two.request('GET', `/api/tools/${tool._id}`)).data.availableQuantity ===
        tool.availableQuantity - tool.minimumOrderQuantity,
    );
    off();
    expect(heard).toContainEqual(['stock', [tool._id]]);
  });

  it('a user made admin, or deleted, on one server counts on the other’s next requests within 1 s (its kept row dropped)', async () => {
    const email = `kept-${randomBytes(4).toString('hex')}@test.example`;
    const token = await two.tokenFor(email);
    const allUsers = () => two.request('GET', '/api/allusers', { token });
    expect((await allUsers()).status).toBe(403); // server two keeps the row now
    expect((await one.request('PUT', `/api/allusers/makeadmin/${email}`, { token: admin })).status).toBe(200);
    await within(1000, async () => (await allUsers()).status === 200);
    expect((await one.request('DELETE', `/api/allusers/dlt/${email}`, { token: admin })).status).toBe(200);
    await within(1000, async () => (await allUsers()).status === 401);
  });

  it('rate limits count across servers', async () => {
    const ip = '198.51.100.77';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const target = i % 2 ? two : one;
      statuses.push(
        (await target.request('PUT', `/api/user/${ALICE}`, { ip, token: 'x', json: { email: ALICE } })).status,
      );
    }
    // 4 a minute in all: the 5th and 6th are refused whichever server they reach.
    expect(statuses.slice(4)).toEqual([429, 429]);
    // Another client has its own bucket.
    expect(
      (await two.request('PUT', `/api/user/${ALICE}`, { ip: '198.51.100.78', token: 'x', json: { email: ALICE } }))
        .status,
    ).toBe(401);
  });

  it('rate-limit hits that arrive together, on two servers at once, are each counted once, in order', async () => {
    const [a, b] = [postgresRateLimitStore(one.db), postgresRateLimitStore(two.db)];
    const key = `burst:${randomBytes(4).toString('hex')}`;
    const long = `orders:user:${'x'.repeat(240)}@example.com`;
    const results = await Promise.all([
      ...Array.from({ length: 30 }, () => a.hit(key, 60_000)),
      ...Array.from({ length: 30 }, () => b.hit(key, 60_000)),
      a.hit(long, 60_000),
      b.hit(long, 60_000),
    ]);
    // 60 hits on one key: every count from 1 to 60 exactly once, one window for all of them.
    const counts = results.slice(0, 60).map((r) => r.count);
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(new Set(results.slice(0, 60).map((r) => r.resetAt)).size).toBe(1);
    // A key longer than the column still counts (hashed), without an error.
    expect(
      results
        .slice(60)
        .map((r) => r.count)
        .sort(),
    ).toEqual([1, 2]);
    // A passed window starts again at 1.
    const short = `short:${randomBytes(4).toString('hex')}`;
    expect((await a.hit(short, 1)).count).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    expect((await b.hit(short, 1)).count).toBe(1);
  });

  it('an image uploaded through one server is served by the other, with an ETag and immutable caching', async () => {
    const form = new FormData();
    form.append('image', new Blob([tinyPng()], { type: 'image/png' }), 'hammer.png');
    const uploaded = await one.request('POST', '/api/images', { token: admin, body: form });
    expect(uploaded.status, JSON.stringify(uploaded.data)).toBe(201);
    const image = await two.request('GET', uploaded.data.data.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toContain('immutable');
    expect(image.headers.get('etag')).toBeTruthy();
  });

  it('background work runs on one server at a time (advisory lock)', async () => {
    let running = 0;
    let most = 0;
    const job = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 200));
      running--;
      return true;
    };
    const results = await Promise.all([one.db.once('hold-expiry', job), two.db.once('hold-expiry', job)]);
    expect(most).toBe(1);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("a store in another schema of the database runs its own background work beside this one's", async () => {
    // Advisory locks are the whole database's: keyed by the job alone, one store's round skipped the
    // other's (each file of the API suite is such a store; a hold then ended 5 s late).
    const otherSchema = `t_${randomBytes(6).toString('hex')}`;
    const other = await openDb({ databaseUrl: url!, schema: otherSchema });
    try {
      let entered!: () => void;
      let release!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const held = new Promise<void>((r) => (release = r));
      const ours = one.db.once('hold-expiry', async () => {
        entered();
        await held;
        return 'ours';
      });
      await inside; // this store holds its lock now
      expect(await other.once('hold-expiry', async () => 'theirs')).toBe('theirs');
      release();
      expect(await ours).toBe('ours');
    } finally {
      await other.query(`DROP SCHEMA ${otherSchema} CASCADE`);
      await other.close();
    }
  });

  it('connections terminated by PostgreSQL (a restart): no crash, no 500, 200 again within 5 s, changes still propagate', async () => {
    const admin2 = await openDb({ databaseUrl: url! });
    await one.request('GET', '/api/ready');
    await two.request('GET', '/api/ready');
    await admin2.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE $1`, [
      `${schema}-%`,
    ]);
    await admin2.close();
    const seen = new Set<number>();
    await within(5000, async () => {
      const res = await one.request('GET', '/api/ready');
      seen.add(res.status);
      return res.status === 200;
    });
    for (const status of seen) expect([200, 503]).toContain(status);
    // The listeners reconnected: a change on one still reaches two.
    await two.request('GET', '/api/tools');
    const created = await one.request('POST', '/api/tools', {
      token: admin,
      json: {
        name: 'After the restart',
        description: 'Made after PostgreSQL cut us off.',
        price: 3,
        minimumOrderQuantity: 1,
        availableQuantity: 1,
        img: '/images/tools/ball-peen-hammer.svg',
      },
    });
    expect(created.status).toBe(201);
    await within(3000, async () =>
      (await two.request('GET', '/api/tools')).data.some((t: { _id: string }) => t._id === created.data.insertedId),
    );
  });
});

describe.skipIf(!url)('servers starting together on an empty database', () => {
  // What a deploy does: every server opens the store at once. Each migrates, seeds and opens its
  // rate-limit counters; any schema change outside the migration lock races the others' (PostgreSQL
  // answers a concurrent CREATE TABLE IF NOT EXISTS with a duplicate key in pg_type) and that server
  // fails to start. Repeated on fresh schemas, as the race needs the starts to line up.
  it('every one of them starts: no schema change races another server', async () => {
    for (let attempt = 0; attempt < 6; attempt++) {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      await (await openDb({ databaseUrl: url!, schema })).close(); // the empty schema (a test-only option)
      const dbs = await Promise.all(Array.from({ length: 4 }, () => openDb({ databaseUrl: url!, schema })));
      try {
        const started = await Promise.allSettled(
          dbs.map(async (db) => {
            await migrate(db);
            await seedIfEmpty(db);
            // Counting needs its table.
            await postgresRateLimitStore(db).hit('start', 60_000);
          }),
        );
        const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
        expect(failures, `attempt ${attempt + 1}`).toEqual([]);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
        const cleanup = await openDb({ databaseUrl: url! });
        await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await cleanup.close();
      }
    }
  });
});

describe('a database that is out of reach', () => {
  let db: Db;
  let request: (path: string) => Promise<{ status: number; data: any }>;
  beforeAll(async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    db = await openDb({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
    const { app } = appOn(db, { rateLimits: memoryRateLimitStore(), changes: memoryBus() });
    request = async (target) => {
      const response = await app.request(target, {}, { clientAddress: '127.0.0.1' });
      return { status: response.status, data: await response.json() };
    };
  });
  afterAll(() => db.close());

  it('answers 503 JSON with a clear message, never a 500; liveness stays 200 while readiness is 503', async () => {
    expect(await request('/api/health')).toMatchObject({ status: 200, data: { ok: true } });
    for (const target of ['/api/ready', '/api/tools', '/api/reviews?limit=5&pageNumber=0']) {
      const res = await request(target);
      expect(res, target).toMatchObject({
        status: 503,
        data: { error: { code: 'database_unavailable', message: expect.stringMatching(/unavailable/) } },
      });
    }
  });
});
