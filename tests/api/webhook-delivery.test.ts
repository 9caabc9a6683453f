// Outgoing webhooks (issue 29), how deliveries go: a failure is retried on the schedule with the same
// webhook-id; a delivery out of attempts pauses an endpoint that got nothing through, until an admin
// resumes it; Replay sends one again; several workers send each event to each endpoint once; a slow,
// silent, redirecting or endless receiver holds nothing up; private addresses are refused, at creation
// and again at each delivery (DNS rebinding).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ATTEMPTS } from '../../src/lib/webhooks';
import { type Db } from '../../src/server/db/client';
import { openDb } from '../../src/server/db/open';
import { emit } from '../../src/server/events/events.service';
import { secretBox } from '../../src/server/webhooks/signing';
import { webhookWorker } from '../../src/server/webhooks/webhook-worker';
import { ADMIN, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError, makeTool } from './helpers';
import { startReceiver, verify, type Receiver } from './webhook-receiver';

let runtime: TestRuntime;
let admin: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await runtime.close();
});

async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
  const started = await startReceiver(respond);
  receivers.push(started);
  return started;
}

async function addEndpoint(url: string, events: string[] = ['tool.created']) {
  const res = await runtime.request('POST', '/api/webhooks', { token: admin, json: { url, events } });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data as { id: string; secret: string };
}

interface DeliveryRow {
  id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_ms: number | null;
  wait_ms: number;
}
const deliveries = (endpoint: string) =>
  runtime.db.query<DeliveryRow>(
    `SELECT id, state, attempts, last_status, last_error, last_ms, round(extract(epoch FROM next_at - last_at) * 1000)::int AS wait_ms
       FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY seq`,
    [endpoint],
  );
/** The retry's time has come. */
const due = (endpoint: string) =>
  runtime.db.query(`UPDATE webhook_deliveries SET next_at = now() WHERE endpoint_id = $1 AND state = 'pending'`, [
    endpoint,
  ]);
const endpointOf = async (id: string) =>
  (await runtime.request('GET', '/api/webhooks', { token: admin })).data.find((e: { id: string }) => e.id === id);

/** Events as a tool's addition writes them, without the API (many at once). */
let made = 0;
async function toolEvents(count: number): Promise<string[]> {
  const subjects: string[] = [];
  for (let i = 0; i < count; i++) {
    const subject = `tool-${++made}`;
    subjects.push(subject);
    await runtime.db.transaction((tx) =>
      emit(tx, { type: 'tool.added', subject, actor: ADMIN, data: { tool: { _id: subject, name: `Tool ${made}` } } }),
    );
  }
  return subjects;
}

const worker = (db: Db, options: { timeoutMs?: number; concurrency?: number } = {}) =>
  webhookWorker(db, {
    guard: { production: false, allowPrivate: true },
    box: secretBox(runtime.deps.jwtSecret),
    ...options,
  });

describe('retries', () => {
  it('a failed attempt is retried after about 5 s, then 30 s (stretched 0–20 %), with the same webhook-id and body, until it gets through', async () => {
    const r = await receiver((_, n) => (n < 2 ? { status: 500, body: 'database locked' } : 200));
    const { id, secret } = await addEndpoint(r.url);
    await makeTool(runtime, admin);
    await runtime.webhooks.run();
    let [d] = await deliveries(id);
    expect(d).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_status: 500,
      last_error: 'HTTP 500: database locked',
    });
    expect(d.wait_ms).toBeGreaterThanOrEqual(5000);
    expect(d.wait_ms).toBeLessThanOrEqual(6000);
    // Not due yet: nothing is sent.
    await runtime.webhooks.run();
    expect(r.received).toHaveLength(1);
    await due(id);
    await runtime.webhooks.run();
    [d] = await deliveries(id);
    expect(d).toMatchObject({ state: 'pending', attempts: 2 });
    expect(d.wait_ms).toBeGreaterThanOrEqual(30_000);
    expect(d.wait_ms).toBeLessThanOrEqual(36_000);
    await due(id);
    await runtime.webhooks.run();
    expect(await deliveries(id)).toMatchObject([
      { state: 'delivered', attempts: 3, last_status: 200, last_error: null },
    ]);
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.id))).toEqual(new Set([d.id]));
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    for (const request of r.received) expect(verify(secret, request)).toBe(true);
    const log = await runtime.request('GET', `/api/webhooks/${id}/deliveries`, { token: admin });
    expect(log.data).toMatchObject({
      total: 1,
      nextCursor: null,
      items: [{ id: d.id, eventType: 'tool.created', state: 'delivered', attempts: 3, responseStatus: 200 }],
    });

    // Replay: the same event again, with the same webhook-id, a fresh count of attempts.
    const replayed = await runtime.request('POST', `/api/webhooks/${id}/deliveries/${d.id}/replay`, { token: admin });
    expect(replayed.status).toBe(200);
    expect(replayed.data).toMatchObject({ id: d.id, state: 'pending', attempts: 0 });
    await runtime.webhooks.run();
    expect(r.received.map((x) => x.id)).toEqual([d.id, d.id, d.id, d.id]);
    expect(await deliveries(id)).toMatchObject([{ state: 'delivered', attempts: 1 }]);
    expectApiError(
      await runtime.request('POST', `/api/webhooks/${id}/deliveries/msg_${'0'.repeat(32)}/replay`, { token: admin }),
      404,
    );
  });
});

describe('pause, resume, replay', () => {
  it('a delivery out of attempts (a day of them) with nothing through since pauses its endpoint with the reason; nothing goes until Resume, which sends what waited', async () => {
    let status = 503;
    const r = await receiver(() => ({ status, body: 'down for maintenance' }));
    const { id } = await addEndpoint(r.url, ['tool.created', 'tool.deleted']);
    const tool = await makeTool(runtime, admin);
    await runtime.webhooks.run();
    // A day of retries later: the last attempt is due.
    await runtime.db.query(
      `UPDATE webhook_deliveries SET attempts = $2, next_at = now(), first_at = now() - interval '26 hours' WHERE endpoint_id = $1`,
      [id, WEBHOOK_MAX_ATTEMPTS - 1],
    );
    await runtime.webhooks.run();
    const [givenUp] = await deliveries(id);
    expect(givenUp).toMatchObject({ state: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, last_status: 503 });
    const paused = await endpointOf(id);
    expect(paused).toMatchObject({ state: 'paused', pausedAt: expect.any(String), failed: 1 });
    expect(paused.pausedReason).toBe(
      `No delivery succeeded for 26 hours: ${WEBHOOK_MAX_ATTEMPTS} attempts of one event failed, the last with HTTP 503: down for maintenance`,
    );
    const [event] = await runtime.db.query<{ actor: string | null }>(
      `SELECT actor FROM events WHERE type = 'webhook.paused' AND subject = $1`,
      [id],
    );
    expect(event).toEqual({ actor: null });

    // Paused: a new event waits, unsent; a replay is refused until the endpoint is resumed.
    await runtime.request('DELETE', `/api/tools/dlt/${tool}`, { token: admin });
    await runtime.db.query(`UPDATE webhook_deliveries SET next_at = now() WHERE endpoint_id = $1`, [id]);
    await runtime.webhooks.run();
    expect(r.received).toHaveLength(2);
    expect(await endpointOf(id)).toMatchObject({ state: 'paused', pending: 1 });
    const refused = await runtime.request('POST', `/api/webhooks/${id}/deliveries/${givenUp.id}/replay`, {
      token: admin,
    });
    expectApiError(refused, 409);

    // The receiver is back; Resume sends what waited.
    status = 200;
    const resumed = await runtime.request('POST', `/api/webhooks/${id}/resume`, { token: admin });
    expect(resumed.status).toBe(200);
    expect(resumed.data).toMatchObject({ id, state: 'active', pausedReason: null, pausedAt: null });
    await runtime.webhooks.run();
    expect(r.received.map((x) => x.payload.type)).toEqual(['tool.created', 'tool.created', 'tool.deleted']);
    expect(await endpointOf(id)).toMatchObject({
      state: 'active',
      pending: 0,
      failed: 1,
      lastSuccessAt: expect.any(String),
    });

    // The given-up one, replayed: the same webhook-id.
    const replayed = await runtime.request('POST', `/api/webhooks/${id}/deliveries/${givenUp.id}/replay`, {
      token: admin,
    });
    expect(replayed.status).toBe(200);
    await runtime.webhooks.run();
    expect(r.received.at(-1)!.id).toBe(givenUp.id);
    expect((await deliveries(id))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
    const audit = await runtime.request('GET', '/api/audit?limit=5', { token: admin });
    expect(audit.data.items.map((e: { type: string }) => e.type).slice(0, 2)).toEqual([
      'webhook.replayed',
      'webhook.resumed',
    ]);
  });

  it('one delivery out of attempts while others get through is given up alone: the endpoint stays active', async () => {
    const r = await receiver((request) => (request.payload.data.name === 'Poison' ? 400 : 200));
    const { id } = await addEndpoint(r.url);
    await makeTool(runtime, admin, { name: 'Poison' });
    await runtime.webhooks.run();
    await makeTool(runtime, admin, { name: 'Fine' });
    await runtime.webhooks.run();
    await runtime.db.query(
      `UPDATE webhook_deliveries SET attempts = $2, next_at = now(), first_at = now() - interval '26 hours' WHERE endpoint_id = $1 AND state = 'pending'`,
      [id, WEBHOOK_MAX_ATTEMPTS - 1],
    );
    await runtime.webhooks.run();
    expect((await deliveries(id)).map((d) => d.state)).toEqual(['failed', 'delivered']);
    expect(await endpointOf(id)).toMatchObject({ state: 'active', pausedReason: null, failed: 1 });
  });

  it('resuming an active endpoint changes nothing; unknown endpoints are 404', async () => {
    const r = await receiver();
    const { id } = await addEndpoint(r.url);
    const res = await runtime.request('POST', `/api/webhooks/${id}/resume`, { token: admin });
    expect(res.data).toMatchObject({ id, state: 'active' });
    expectApiError(await runtime.request('POST', `/api/webhooks/${'0'.repeat(24)}/resume`, { token: admin }), 404);
  });
});

describe('several workers, slow receivers', () => {
  it('each event reaches each endpoint exactly once with three workers (servers) sending at once', async () => {
    let second: Db = runtime.db;
    if (runtime.db.kind === 'postgres') {
      const [{ schema }] = await runtime.db.query<{ schema: string }>('SELECT current_schema() AS schema');
      second = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL, schema });
    }
    try {
      const [a, b] = [await receiver(), await receiver()];
      const endpoints = [await addEndpoint(a.url), await addEndpoint(b.url)];
      const subjects = await toolEvents(30);
      const workers = [
        worker(runtime.db, { concurrency: 4 }),
        worker(second, { concurrency: 4 }),
        worker(second, { concurrency: 3 }),
      ];
      await Promise.all(workers.map((w) => w.run()));
      for (const r of [a, b]) {
        expect(r.received.map((x) => x.payload.data._id).sort()).toEqual([...subjects].sort());
        expect(new Set(r.received.map((x) => x.id)).size).toBe(30);
      }
      for (const { id } of endpoints)
        expect((await deliveries(id)).every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);
    } finally {
      if (second !== runtime.db) await second.close();
    }
  });

  it('a slow receiver holds up no other endpoint: at most two of its deliveries wait at once while the others go', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = await receiver(() => ({ status: 200, after: gate }));
    const fast = await receiver();
    await addEndpoint(slow.url);
    await addEndpoint(fast.url);
    await toolEvents(6);
    const running = worker(runtime.db, { timeoutMs: 10_000 }).run();
    // The fast endpoint gets all six while the slow one holds its first two. The slow one's second request
    // may reach it after the fast one's sixth on a loaded machine (CI saw one), so it is waited for too;
    // then no third comes while those two wait.
    await fast.waitFor(6);
    await slow.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(slow.received).toHaveLength(2);
    release();
    await running;
    expect(slow.received).toHaveLength(6);
  });

  it('an attempt without an answer in time fails and is retried; a redirect is not followed; an endless answer is read no further than needed', async () => {
    const silent = await receiver(() => ({ status: 200, after: new Promise(() => {}) }));
    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { location: target.url } }));
    const endless = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const timer = setInterval(() => res.write(chunk), 5);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const ids = {
        silent: (await addEndpoint(silent.url)).id,
        redirecting: (await addEndpoint(redirecting.url)).id,
        endless: (await addEndpoint(`http://127.0.0.1:${(endless.address() as AddressInfo).port}/`)).id,
      };
      await toolEvents(1);
      await worker(runtime.db, { timeoutMs: 1500 }).run();
      const [quiet] = await deliveries(ids.silent);
      expect(quiet).toMatchObject({
        state: 'pending',
        attempts: 1,
        last_status: null,
        last_error: 'no answer within 1.5 s',
      });
      expect(quiet.last_ms).toBeGreaterThanOrEqual(1400);
      expect(await deliveries(ids.redirecting)).toMatchObject([
        { state: 'pending', last_status: 307, last_error: `redirects are not followed (Location: ${target.url})` },
      ]);
      expect(target.received).toEqual([]);
      const [long] = await deliveries(ids.endless);
      expect(long).toMatchObject({ state: 'delivered', last_status: 200 });
      expect(long.last_ms).toBeLessThan(1000);
    } finally {
      endless.closeAllConnections();
      endless.close();
    }
  });
});

describe('where webhooks may go, without WEBHOOK_ALLOW_PRIVATE', () => {
  let guarded: TestRuntime;
  let token: string;
  const names: Record<string, string[]> = {
    'hooks.example.test': ['93.184.216.34'],
    'intranet.test': ['10.0.0.8'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
  };
  /** Names as the tests say; `hanging` ones never answer. */
  const hanging = new Set<string>();
  const resolveHost = async (host: string): Promise<string[]> => {
    if (hanging.has(host)) return new Promise(() => {});
    if (names[host]) return names[host];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  beforeAll(async () => {
    guarded = await createTestRuntime({ env: { WEBHOOK_ALLOW_PRIVATE: '0' }, resolveHost });
    token = await guarded.tokenFor(ADMIN);
  });
  afterAll(() => guarded.close());
  const add = (url: string) =>
    guarded.request('POST', '/api/webhooks', { token, json: { url, events: ['tool.created'] } });

  it.each([
    'http://127.0.0.1:9/x',
    'http://127.1.2.3/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.10/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://0.0.0.0/',
    'http://localhost:4321/api',
    'http://shop.localhost/',
    'http://intranet.test/',
    'http://mixed.test/',
  ])('refuses %s (422, nothing written)', async (url) => {
    const res = await add(url);
    expectApiError(res, 422);
    expect(res.data.error.fields.url).toBe(res.data.error.message);
    const [{ n }] = await guarded.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints');
    expect(n).toBe(0);
  });

  it('refuses a host that does not resolve; accepts one with a public address', async () => {
    expect((await add('https://nowhere.test/')).data.error.message).toBe('The host of this URL could not be found');
    const accepted = await add('https://hooks.example.test/ironcrest');
    expect(accepted.status).toBe(201);
    // Gone again, so no later test sends a delivery to that (real) address.
    await guarded.request('DELETE', `/api/webhooks/${accepted.data.id}`, { token });
  });

  it('checks the address again at each delivery: a name that now resolves to loopback (DNS rebinding) is not called', async () => {
    const r = await receiver();
    names['rebind.test'] = ['93.184.216.34'];
    const created = await add(`http://rebind.test:${r.port}/hooks`);
    expect(created.status).toBe(201);
    names['rebind.test'] = ['127.0.0.1'];
    await makeTool(guarded, token);
    await guarded.webhooks.run();
    expect(r.received).toEqual([]);
    const [d] = await guarded.db.query<{ state: string; last_error: string }>(
      'SELECT state, last_error FROM webhook_deliveries WHERE endpoint_id = $1',
      [created.data.id],
    );
    expect(d).toEqual({
      state: 'pending',
      last_error: 'rebind.test resolves to 127.0.0.1, a private or local address: not called',
    });
    await guarded.request('DELETE', `/api/webhooks/${created.data.id}`, { token });
  });

  it('a name that does not resolve in time counts as no answer: the attempt ends at its deadline', async () => {
    names['slow-dns.test'] = ['93.184.216.34'];
    const created = await add('https://slow-dns.test/hooks');
    expect(created.status).toBe(201);
    hanging.add('slow-dns.test');
    await makeTool(guarded, token);
    const box = secretBox(guarded.deps.jwtSecret);
    await webhookWorker(guarded.db, {
      guard: { production: false, allowPrivate: false, resolve: resolveHost },
      box,
      timeoutMs: 300,
    }).run();
    const [d] = await guarded.db.query<{ state: string; last_error: string; last_ms: number }>(
      'SELECT state, last_error, last_ms FROM webhook_deliveries WHERE endpoint_id = $1',
      [created.data.id],
    );
    expect(d).toMatchObject({ state: 'pending', last_error: 'no answer within 0.3 s' });
    expect(d.last_ms).toBeLessThan(1000);
  });
});
