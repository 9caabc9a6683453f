// The API in-process against a real database (PGlite, or PostgreSQL when TEST_DB=postgres),
// with one helper per kind of caller. Every test file gets its own fresh, seeded store.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createApp } from '../../src/server/app';
import { firebaseIdentity, type Identity } from '../../src/server/auth/identity';
import { loadConfig } from '../../src/server/config';
import { type Db } from '../../src/server/db/client';
import { openDb } from '../../src/server/db/open';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/db/seed';
import { memoryBus } from '../../src/server/caching/changes';
import { memoryRateLimitStore } from '../../src/server/http/rate-limit';
import { diskImageStorage } from '../../src/server/images/storage';
import { sandboxGateway } from '../../src/server/payments/sandbox';
import type Stripe from 'stripe';
import type { PaymentGateway } from '../../src/server/ports';

export const PROJECT_ID = 'demo-ironcrest-test';
export const ADMIN = 'admin@test.example';
export const ALICE = 'alice@test.example';
export const BOB = 'bob@test.example';

export interface RuntimeOptions {
  env?: Record<string, string>;
  /** PGlite on disk in this directory (from the template) instead of in memory. */
  pgliteDir?: string;
  /** PostgreSQL at this URL (a scratch database) instead of a schema of TEST_DATABASE_URL. */
  databaseUrl?: string;
  payments?: (db: Db) => PaymentGateway;
  stripe?: Stripe;
  identity?: Identity;
  /** Name resolution for webhook URLs instead of DNS. */
  resolveHost?: (host: string) => Promise<string[]>;
}

async function openTestDb(options: RuntimeOptions): Promise<{ db: Db; drop(): Promise<void> }> {
  if (options.databaseUrl) {
    const db = await openDb({ databaseUrl: options.databaseUrl });
    await migrate(db);
    await seedIfEmpty(db, { demoAccounts: true });
    return { db, drop: () => db.close() };
  }
  if (options.pgliteDir) {
    const template = readFileSync(inject('pgliteTemplate'));
    const db = await openDb({ dataDir: options.pgliteDir, loadDataDir: new Blob([template]) });
    return { db, drop: () => db.close() };
  }
  if (process.env.TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is required for TEST_DB=postgres');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = await openDb({ databaseUrl: url, schema });
    await migrate(db);
    await seedIfEmpty(db, { demoAccounts: true }); // as global-setup's template
    return {
      db,
      async drop() {
        await db.query(`DROP SCHEMA ${schema} CASCADE`);
        await db.close();
      },
    };
  }
  const template = readFileSync(inject('pgliteTemplate'));
  const db = await openDb({ memory: true, loadDataDir: new Blob([template]) });
  return { db, drop: () => db.close() };
}

/** The password of every account idTokenFor makes. */
export const PASSWORD = 'test-password-1';

/**
 * A real ID token from the test Auth emulator (the account is created on first use). Verified by
 * default, as a Google account or a password account after its verification mail; `verified: false`
 * gives the token of a fresh password account that has not verified its email.
 */
export async function idTokenFor(
  email: string,
  name = email.split('@')[0],
  options: { verified?: boolean } = {},
): Promise<string> {
  const verified = options.verified ?? true;
  const host = inject('emulatorHost');
  const call = async (method: string, body: object) => {
    const response = await fetch(
      `http://${host}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, returnSecureToken: true }),
      },
    );
    return (await response.json()) as { idToken?: string; localId?: string; error?: { message: string } };
  };
  let result = await call('signInWithPassword', { email, password: PASSWORD });
  if (!result.idToken) result = await call('signUp', { email, password: PASSWORD, displayName: name });
  if (!result.idToken) throw new Error(`emulator sign-in for ${email} failed: ${result.error?.message}`);
  const claims = JSON.parse(Buffer.from(result.idToken.split('.')[1], 'base64url').toString()) as {
    email_verified?: boolean;
  };
  if (Boolean(claims.email_verified) === verified) return result.idToken;
  await emulatorAdmin('update', { localId: result.localId, emailVerified: verified });
  result = await call('signInWithPassword', { email, password: PASSWORD });
  if (!result.idToken) throw new Error(`emulator sign-in for ${email} failed: ${result.error?.message}`);
  return result.idToken;
}

/** The emulator's admin API (accounts:update, accounts:delete …), as the project owner. */
export async function emulatorAdmin(method: string, body: object): Promise<unknown> {
  const url = `http://${inject('emulatorHost')}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:${method}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`emulator accounts:${method} failed: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A hand-made unsigned token in the emulator's format, for tampering tests (expired, wrong project …). */
export function emulatorIdToken(
  email: string,
  options: { name?: string; expiresIn?: number; projectId?: string } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const uid = `uid-${Buffer.from(email).toString('hex').slice(0, 20)}`;
  const projectId = options.projectId ?? PROJECT_ID;
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({
    iss: `https://securetoken.google.com/${projectId}`,
    aud: projectId,
    auth_time: now,
    user_id: uid,
    sub: uid,
    iat: now,
    exp: now + (options.expiresIn ?? 3600),
    email,
    email_verified: true,
    name: options.name ?? email.split('@')[0],
    firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
  })}.`;
}

/** A caller of an app in-process: JSON in and out, a bearer token, the client address from x-test-ip. */
export function requestsTo(app: ReturnType<typeof createApp>['app']) {
  return async function request(
    method: string,
    url: string,
    init: { token?: string | null; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await app.request(
      url,
      { method, headers, body },
      { clientAddress: headers['x-test-ip'] ?? '127.0.0.1' },
    );
    const text = await response.text();
    let data: any = undefined;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = text;
    }
    return { status: response.status, data, headers: response.headers };
  };
}

/** Our access token for an email, through the real exchange (PUT /api/user/{email}) with an emulator ID token; kept per email. */
export function tokensFrom(request: ReturnType<typeof requestsTo>) {
  const tokens = new Map<string, string>();
  return async function tokenFor(email: string, name?: string): Promise<string> {
    if (!tokens.has(email)) {
      const res = await request('PUT', `/api/user/${email}`, { token: await idTokenFor(email, name), json: { email } });
      if (res.status !== 200)
        throw new Error(`token exchange for ${email} failed: ${res.status} ${JSON.stringify(res.data)}`);
      tokens.set(email, res.data.token);
    }
    return tokens.get(email)!;
  };
}

export async function createTestRuntime(options: RuntimeOptions = {}) {
  const { db, drop } = await openTestDb(options);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-api-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ADMIN_EMAILS: ADMIN,
    PUBLIC_FIREBASE_PROJECT_ID: PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    // Suites place many orders as one user; the hoarding limits have their own tests (orders.test.ts).
    MAX_UNPAID_ORDERS: '1000',
    BOOKING_RATE_LIMIT: '1000',
    // Webhook receivers in the tests listen on 127.0.0.1 (webhooks.test.ts checks the rule without it).
    WEBHOOK_ALLOW_PRIVATE: '1',
    ...options.env,
  });
  let clock = Date.now();
  const deps = {
    db,
    config,
    jwtSecret: new TextEncoder().encode(config.jwtSecret!),
    identity: options.identity ?? firebaseIdentity(config),
    payments: (options.payments ?? sandboxGateway)(db),
    images: diskImageStorage(dataDir),
    rateLimits: memoryRateLimitStore(),
    changes: memoryBus(),
    now: () => new Date(clock),
    resolveHost: options.resolveHost,
  };
  const { app, tools, orders, checkout, outbox, emails, invoices, webhooks } = createApp(deps, {
    stripe: options.stripe,
  });

  const request = requestsTo(app);
  const tokenFor = tokensFrom(request);

  return {
    app,
    db,
    deps,
    tools,
    orders,
    /** Where holds end (no read lets a hold go: after `advance`, `checkout.expireHolds()` plays the hold timer). */
    checkout,
    /** The events' outbox: not running on its own here; `outbox.run()` delivers what is due. */
    outbox,
    /** The webhook worker: not running on its own here; `webhooks.run()` sends what is due and waits. */
    webhooks,
    emails,
    invoices,
    request,
    tokenFor,
    /** After a test wrote users' rows in SQL itself: signed-in checks read them again, as after users.service's writes. */
    usersWritten() {
      deps.changes.announce('users');
    },
    /** Moves the store's clock (hold expiry). */
    advance(ms: number) {
      clock += ms;
    },
    async firstTool() {
      const list = (await request('GET', '/api/tools')).data as {
        _id: string;
        minimumOrderQuantity: number;
        availableQuantity: number;
        price: number;
      }[];
      return list[0];
    },
    async close() {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestRuntime = Awaited<ReturnType<typeof createTestRuntime>>;

/** A whole runtime (runtime.ts), as a server opens it, on a fresh embedded store; `close` removes the store. */
export async function openTestRuntime(env: Record<string, string> = {}, options: { warmUp?: boolean } = {}) {
  const { openRuntime } = await import('../../src/server/runtime');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-runtime-'));
  const runtime = await openRuntime(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      PUBLIC_FIREBASE_PROJECT_ID: PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      ...env,
    }),
    options,
  );
  return {
    runtime,
    async close() {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
