// Backup and restore of the embedded store (issue 29). A serving store (openRuntime and its backup socket,
// as main.ts starts them) is backed up by `npm run backup` while orders pour in, restored by
// `npm run restore` into a fresh DATA_DIR, and the restored store holds every order acknowledged before
// the backup began, no half order, every tool, the uploads, the JWT secret and the emulator accounts.
// Files that are cut short, foreign or damaged, and targets that are not safe, are refused unchanged.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEmulator } from '../../scripts/lib/emulator';
import { loadConfig } from '../../src/server/config';
import { type Queryable } from '../../src/server/db/client';
import { lockHolder } from '../../src/server/db/pglite';
import { openDb } from '../../src/server/db/open';
import { openBackup } from '../../src/server/ops/backup-file';
import { startOpsSocket } from '../../src/server/ops/ops-socket';
import { openRuntime, type Runtime } from '../../src/server/runtime';
import { ADMIN, ALICE, PASSWORD, PROJECT_ID, requestsTo, tokensFrom } from './harness';
import { ADDRESS, PHONE, expectStockLedgerBalanced, makeTool } from './helpers';
import { tinyPng } from './images.fixtures';

const onPostgres = process.env.TEST_DB === 'postgres';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-backup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const envFor = (dataDir: string) => ({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  JWT_SECRET: '', // the store's own secret in DATA_DIR, which the backup carries
  ADMIN_EMAILS: ADMIN,
  PUBLIC_FIREBASE_PROJECT_ID: PROJECT_ID,
  FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
  MAX_UNPAID_ORDERS: '100000',
  BOOKING_RATE_LIMIT: '100000',
  LOG_LEVEL: 'silent',
});

/** Runs `npm run backup` or `npm run restore` (their scripts, with this Node) against dataDir. */
function run(script: 'backup' | 'restore', args: string[], dataDir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', `${script}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...envFor(dataDir), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

/** Every file under dir with its size and modification time: equal before and after means untouched. */
function fingerprint(dir: string): string[] {
  if (!existsSync(dir)) return ['(absent)'];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const info = statSync(path.join(dir, name));
      return `${name} ${info.isFile() ? info.size : 'dir'} ${info.mtimeMs}`;
    });
}

/** A store on a new DATA_DIR made from the prepared template (seeded, migrated). */
async function templateDir(name: string): Promise<string> {
  const dir = path.join(scratch, name);
  const db = await openDb({ dataDir: dir, loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
  await db.close();
  return dir;
}

const serving = (dataDir: string) => openRuntime(loadConfig(envFor(dataDir)));
const bytesOf = async (runtime: Runtime, url: string) =>
  Buffer.from(await (await runtime.app.request(url)).arrayBuffer());

describe.runIf(!onPostgres)('backup and restore of the embedded store', () => {
  const file = path.join(scratch, 'store.backup');
  const restored = path.join(scratch, 'restored');
  let source: string;

  beforeAll(async () => {
    source = await templateDir('serving');
  });

  it('copies the database between transactions: one in flight is wholly in the copy', async () => {
    const db = await openDb({ memory: true, loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
    const insert = (tx: Queryable, id: string) =>
      tx.query(`INSERT INTO contact_messages (id, name, email, message) VALUES ($1, 'A', 'a@x.yz', 'hi')`, [id]);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writer = db.transaction(async (tx) => {
      await insert(tx, 'first-half');
      await gate;
      await insert(tx, 'second-half');
    });
    await new Promise((r) => setTimeout(r, 50));
    let copied = false;
    const copy = db.snapshot!(async () => undefined).finally(() => (copied = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(copied, 'the copy waits for the transaction in flight').toBe(false);
    release();
    await writer;
    const loaded = await openDb({ memory: true, loadDataDir: (await copy).tarball });
    const rows = await loaded.query(`SELECT id FROM contact_messages WHERE id LIKE '%-half' ORDER BY id`);
    expect(rows).toEqual([{ id: 'first-half' }, { id: 'second-half' }]);
    await loaded.close();
    await db.close();
  });

  it('backs up a serving store while orders are placed; the restore holds every committed order, whole', async () => {
    const runtime = await serving(source);
    const ops = await startOpsSocket({ db: runtime.db, config: loadConfig(envFor(source)) });
    // Only the store's own user may ask it for a backup (which holds the JWT secret).
    expect((statSync(path.join(source, '.ops.sock')).mode & 0o777).toString(8)).toBe('600');
    const request = requestsTo(runtime.app);
    const tokenFor = tokensFrom(request);
    const admin = await tokenFor(ADMIN);
    const alice = await tokenFor(ALICE);
    // An account of this test's own, so no other test file (they share the emulator) changes it meanwhile.
    const owner = `backup-${Date.now()}@test.example`;
    await tokenFor(owner);
    const form = new FormData();
    form.append('image', new Blob([tinyPng(8, 6)], { type: 'image/png' }), 'anvil.png');
    const upload = await request('POST', '/api/images', { token: admin, body: form });
    expect(upload.status, JSON.stringify(upload.data)).toBe(201);
    const image: string = upload.data.data.url;
    const toolId = await makeTool({ request }, admin, { availableQuantity: 1_000_000, img: image });

    // Three buyers' worth of orders, one after another each, until told to stop.
    const acknowledged: { id: string; at: number }[] = [];
    let placing = true;
    const worker = async () => {
      while (placing) {
        const res = await request('POST', '/api/booking', {
          token: alice,
          json: { toolId, quantity: 2, address: ADDRESS, phone: PHONE },
        });
        expect(res.status, JSON.stringify(res.data)).toBe(201);
        acknowledged.push({ id: res.data.insertedId, at: performance.now() });
      }
    };
    const workers = [worker(), worker(), worker()];
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 20));

    const began = performance.now();
    const backup = await run('backup', [file], source);
    const ended = performance.now();
    placing = false;
    await Promise.all(workers);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('Auth emulator accounts, read from the running emulator');
    const before = acknowledged.filter((o) => o.at < began).map((o) => o.id);
    // Orders kept coming while the backup was made: it did not stop the store.
    expect(acknowledged.filter((o) => o.at > began && o.at < ended).length).toBeGreaterThan(0);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');

    const tools = (await runtime.db.query<{ id: string }>('SELECT id FROM tools ORDER BY id')).map((t) => t.id);
    const imageBytes = await bytesOf(runtime, image);
    expect(imageBytes.length).toBeGreaterThan(0);
    await ops?.close();
    await runtime.close();

    const restore = await run('restore', [file], restored);
    expect(restore.code, restore.stderr).toBe(0);
    expect(readFileSync(path.join(restored, 'jwt-secret'))).toEqual(readFileSync(path.join(source, 'jwt-secret')));

    const again = await serving(restored);
    try {
      const get = requestsTo(again.app);
      const ids = new Set((await again.db.query<{ id: string }>('SELECT id FROM orders')).map((o) => o.id));
      expect(
        before.filter((id) => !ids.has(id)),
        'orders acknowledged before the backup began but missing',
      ).toEqual([]);
      // No half order: each has its lines, its sale in the stock ledger and its event, and the tool's
      // stock is what its orders left.
      const half = await again.db.query(
        `SELECT o.id FROM orders o JOIN order_items i ON i.order_id = o.id AND i.tool_id = $1
         WHERE i.quantity <> o.quantity
           OR (SELECT coalesce(sum(-delta), 0) FROM stock_ledger l WHERE l.order_id = o.id AND l.reason = 'sale') <> o.quantity
           OR NOT EXISTS (SELECT 1 FROM events e WHERE e.type = 'order.placed' AND e.subject = o.id)`,
        [toolId],
      );
      expect(half).toEqual([]);
      const [stock] = await again.db.query<{ left: number; sold: number; lines: number }>(
        `SELECT t.available_quantity AS left, (SELECT sum(quantity)::int FROM order_items WHERE tool_id = t.id) AS sold,
           (SELECT count(*)::int FROM order_items WHERE tool_id = t.id) AS lines FROM tools t WHERE t.id = $1`,
        [toolId],
      );
      expect(stock.left + stock.sold).toBe(1_000_000);
      expect(stock.lines).toBeGreaterThanOrEqual(before.length);
      await expectStockLedgerBalanced(again);
      expect((await again.db.query<{ id: string }>('SELECT id FROM tools ORDER BY id')).map((t) => t.id)).toEqual(
        tools,
      );
      // The uploads, and a token signed before the backup (the JWT secret came back with it).
      expect(await bytesOf(again, image)).toEqual(imageBytes);
      const mine = await get('GET', `/api/booking/email/${ALICE}`, { token: alice });
      expect(mine.status, JSON.stringify(mine.data)).toBe(200);
    } finally {
      await again.close();
    }

    // The accounts: an emulator started on the restored DATA_DIR (as npm start does) signs Alice in.
    const emulatorHost = `127.0.0.1:${Number(inject('emulatorHost').split(':')[1]) + 3}`;
    const emulator = await startEmulator({ host: emulatorHost, projectId: PROJECT_ID, dataDir: restored, quiet: true });
    try {
      const signIn = await fetch(
        `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: owner, password: PASSWORD, returnSecureToken: true }),
        },
      );
      const answer = (await signIn.json()) as { email?: string };
      expect(answer.email, JSON.stringify(answer)).toBe(owner);
    } finally {
      await emulator.stop();
    }
  });

  it('refuses a file cut short, a foreign file and a damaged one, and changes nothing', async () => {
    const whole = readFileSync(file);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 3] ^= 0xff;
    const target = path.join(scratch, 'empty');
    mkdirSync(target);
    const cases: [string, Buffer, RegExp][] = [
      [
        'cut.backup',
        whole.subarray(0, Math.floor(whole.length / 2)),
        /^The backup file is incomplete \(\d+ of \d+ bytes\)/,
      ],
      ['empty.backup', Buffer.alloc(0), /^The backup file is incomplete \(it is empty\)/],
      ['photo.png', Buffer.from(tinyPng()), /photo\.png is not an Ironcrest store backup\.$/],
      ['flipped.backup', flipped, /^The backup file is damaged \(.+ does not match its checksum\)/],
    ];
    for (const [name, bytes, message] of cases) {
      writeFileSync(path.join(scratch, name), bytes);
      for (const dataDir of [target, path.join(scratch, 'absent')]) {
        const before = fingerprint(dataDir);
        const res = await run('restore', [path.join(scratch, name)], dataDir);
        expect(res.code, name).toBe(1);
        expect(res.stderr.trim(), name).toMatch(message);
        expect(fingerprint(dataDir), name).toEqual(before);
      }
    }
  });

  it('refuses a DATA_DIR that is not empty without --force, and --force while a store holds it', async () => {
    const before = fingerprint(restored);
    const refused = await run('restore', [file], restored);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `${restored} is not empty. Restore into an empty DATA_DIR, or add --force to replace what it holds.`,
    );
    expect(fingerprint(restored)).toEqual(before);

    const db = await openDb({ dataDir: restored });
    try {
      const held = fingerprint(restored);
      const forced = await run('restore', [file, '--force'], restored);
      expect(forced.code).toBe(1);
      expect(forced.stderr.trim()).toBe(
        `A store (pid ${process.pid}) is serving ${restored}. Stop it first: a restore replaces its data.`,
      );
      expect(fingerprint(restored)).toEqual(held);
    } finally {
      await db.close();
    }
  });

  it('replaces a stopped store with --force', async () => {
    writeFileSync(path.join(restored, 'stray.txt'), 'not from the backup');
    rmSync(path.join(restored, 'uploads'), { recursive: true });
    const res = await run('restore', [file, '--force'], restored);
    expect(res.code, res.stderr).toBe(0);
    expect(existsSync(path.join(restored, 'stray.txt'))).toBe(false);
    expect(readdirSync(path.join(restored, 'uploads')).length).toBeGreaterThan(0);
    expect(readdirSync(restored).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('backs up a store that is not serving by opening it (and lets it go after)', async () => {
    const second = path.join(scratch, 'second.backup');
    const res = await run('backup', [second], source);
    expect(res.code, res.stderr).toBe(0);
    expect(lockHolder(path.join(source, 'pg'))).toBeUndefined();
    const { manifest } = await openBackup(second);
    expect(manifest.store.orders).toBeGreaterThan(20);
    expect(manifest.parts.map((p) => p.name)).toContain('jwt-secret');

    const exists = await run('backup', [second], source);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toContain('exists already');
    const nothing = await run('backup', [path.join(scratch, 'third.backup')], path.join(scratch, 'no-store'));
    expect(nothing.code).toBe(1);
    expect(nothing.stderr.trim()).toBe(
      `There is no store in ${path.join(scratch, 'no-store')}. Set DATA_DIR to the store's directory.`,
    );
    expect(existsSync(path.join(scratch, 'third.backup'))).toBe(false);
  });
});

describe('backup with DATABASE_URL', () => {
  it('refuses in one line that points to pg_dump', async () => {
    const res = await run('backup', [path.join(scratch, 'pg.backup')], path.join(scratch, 'pg-data'), {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('pg_dump');
    expect(existsSync(path.join(scratch, 'pg.backup'))).toBe(false);
  });
});
