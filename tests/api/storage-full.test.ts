// When the database cannot write (issue 23): the embedded store's disk fills up while orders flow
// (a small tmpfs under it), and PostgreSQL goes read-only (default_transaction_read_only). Orders are
// refused with a clear 503, never a 500 or half an order; no acknowledged order is lost; /api/ready
// says so meanwhile; and the store takes orders again by itself once it can.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db/open';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { ADDRESS, PHONE, makeTool } from './helpers';

const onPostgres = process.env.TEST_DB === 'postgres';
const root = process.getuid?.() === 0;

interface Flow {
  statuses: number[];
  acknowledged: string[];
}

/** Places one-unit orders from a few buyers at once until `stop` says so. */
async function orderStream(runtime: TestRuntime, tokens: string[], toolId: string, stop: () => boolean, flow: Flow) {
  await Promise.all(
    tokens.map(async (token) => {
      while (!stop()) {
        const res = await runtime.request('POST', '/api/booking', {
          token,
          json: { toolId, quantity: 1, address: ADDRESS, phone: PHONE },
        });
        flow.statuses.push(res.status);
        if (res.status === 201) flow.acknowledged.push(res.data.insertedId);
        else expect(res.data.error.code, JSON.stringify(res.data)).toMatch(/^(storage|database)_unavailable$/);
      }
    }),
  );
}

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stock taken equals the units of the orders that exist: nothing half-written. */
async function expectStockAccountedFor(runtime: TestRuntime, toolId: string, initial: number) {
  const [{ available }] = await runtime.db.query<{ available: number }>(
    'SELECT available_quantity AS available FROM tools WHERE id = $1',
    [toolId],
  );
  const [{ units }] = await runtime.db.query<{ units: number }>(
    'SELECT coalesce(sum(quantity), 0)::int AS units FROM order_items WHERE tool_id = $1',
    [toolId],
  );
  expect(available + units).toBe(initial);
}

describe.runIf(!onPostgres && root)('the embedded store on a disk that fills up', () => {
  let mount = '';
  let runtime: TestRuntime;
  const filler = () => path.join(mount, 'filler');

  beforeAll(async () => {
    mount = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mount]);
    runtime = await createTestRuntime({ pgliteDir: path.join(mount, 'data') });
  });
  afterAll(async () => {
    await runtime?.close().catch(() => {});
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it('refuses orders with 503 while full, loses none it acknowledged, says so on /api/ready, and recovers by itself', async () => {
    const admin = await runtime.tokenFor(ADMIN);
    const buyers = await Promise.all(
      [ALICE, 'bo@test.example', 'cy@test.example', 'di@test.example'].map((e) => runtime.tokenFor(e)),
    );
    const initial = 1_000_000;
    const toolId = await makeTool(runtime, admin, { availableQuantity: initial });
    expect((await runtime.request('GET', '/api/ready')).status).toBe(200);

    const flow: Flow = { statuses: [], acknowledged: [] };
    let phase: 'filling' | 'full' | 'freed' | 'done' = 'filling';
    const stream = orderStream(runtime, buyers, toolId, () => phase === 'done', flow);

    // Fill the disk but for a few pages while orders flow.
    const disk = statfsSync(mount);
    writeFileSync(filler(), Buffer.alloc(Math.max(0, Number(disk.bavail * disk.bsize) - 64 * 1024)));
    await until(() => flow.statuses.includes(503), 30_000, 'an order refused for want of space');
    phase = 'full';
    const ready = await runtime.request('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.data.error.code).toBe('storage_unavailable');
    expect(ready.data.error.message).toMatch(/disk is full/);

    // Space returns: orders go through again, and readiness follows.
    rmSync(filler());
    phase = 'freed';
    const before = flow.acknowledged.length;
    await until(() => flow.acknowledged.length > before + 10, 15_000, 'orders acknowledged again');
    phase = 'done';
    await stream;
    await until(
      async () => (await runtime.request('GET', '/api/ready')).status === 200,
      15_000,
      '/api/ready back to 200',
    );

    expect(flow.statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    const found = await runtime.db.query<{ id: string }>('SELECT id FROM orders WHERE id = ANY($1)', [
      flow.acknowledged,
    ]);
    expect(found.length).toBe(flow.acknowledged.length);
    await expectStockAccountedFor(runtime, toolId, initial);

    // And they are on disk: the directory opened again holds every acknowledged order.
    await runtime.close();
    const reopened = await openDb({ dataDir: path.join(mount, 'data') });
    try {
      const kept = await reopened.query<{ id: string }>('SELECT id FROM orders WHERE id = ANY($1)', [
        flow.acknowledged,
      ]);
      expect(kept.length).toBe(flow.acknowledged.length);
    } finally {
      await reopened.close();
    }
  });
});

describe.runIf(onPostgres)('PostgreSQL going read-only', () => {
  const name = `t_readonly_${randomBytes(4).toString('hex')}`;
  const base = process.env.TEST_DATABASE_URL!;
  const scratchUrl = () => {
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url.href;
  };
  const admin = () => new pg.Client({ connectionString: base });
  let runtime: TestRuntime;

  async function asAdmin(sql: string) {
    const client = admin();
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await asAdmin(`CREATE DATABASE ${name}`);
    runtime = await createTestRuntime({ databaseUrl: scratchUrl() });
  });
  afterAll(async () => {
    await runtime?.close().catch(() => {});
    await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('refuses orders with 503 while read-only, says so on /api/ready, and takes orders again once writable', async () => {
    const adminToken = await runtime.tokenFor(ADMIN);
    const buyers = await Promise.all([ALICE, 'bo@test.example'].map((e) => runtime.tokenFor(e)));
    const initial = 100_000;
    const toolId = await makeTool(runtime, adminToken, { availableQuantity: initial });
    const flow: Flow = { statuses: [], acknowledged: [] };
    let done = false;
    const stream = orderStream(runtime, buyers, toolId, () => done, flow);
    await until(() => flow.acknowledged.length > 5, 10_000, 'orders placed');

    // The operator makes the database read-only and ends its sessions, so new ones begin read-only.
    await asAdmin(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    await asAdmin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
    );
    const refusedFrom = flow.statuses.length;
    await until(() => flow.statuses.slice(refusedFrom).filter((s) => s === 503).length > 5, 15_000, 'orders refused');
    const ready = await runtime.request('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.data.error.message).toMatch(/read-only/);

    await asAdmin(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
    const before = flow.acknowledged.length;
    await until(() => flow.acknowledged.length > before + 5, 20_000, 'orders acknowledged again');
    done = true;
    await stream;
    await until(
      async () => (await runtime.request('GET', '/api/ready')).status === 200,
      15_000,
      '/api/ready back to 200',
    );

    expect(flow.statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    const found = await runtime.db.query<{ id: string }>('SELECT id FROM orders WHERE id = ANY($1)', [
      flow.acknowledged,
    ]);
    expect(found.length).toBe(flow.acknowledged.length);
    await expectStockAccountedFor(runtime, toolId, initial);
  });
});
