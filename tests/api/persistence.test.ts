// Durability at the database layer: committed writes survive a clean close and a SIGKILL; rolled-back ones do not.
// PGlite on a data directory in the PGlite project, a PostgreSQL schema in the PostgreSQL project.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { type Db, type OpenOptions } from '../../src/server/db/client';
import { openDb } from '../../src/server/db/open';
import { migrate } from '../../src/server/db/migrate';

const postgres = process.env.TEST_DB === 'postgres';
const OPEN = fileURLToPath(new URL('../../src/server/db/open.ts', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-persist-'));
const schema = `p_${randomBytes(6).toString('hex')}`;
const target: OpenOptions = postgres ? { databaseUrl: process.env.TEST_DATABASE_URL, schema } : { dataDir: dir };

const contactCount = async (db: Db, id: string) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM contact_messages WHERE id = $1', [id]))[0].n;

beforeAll(async () => {
  // A new PGlite directory starts from the prepared template (~1 s) rather than initdb (~8 s).
  const template = postgres ? undefined : new Blob([readFileSync(inject('pgliteTemplate'))]);
  const db = await openDb({ ...target, loadDataDir: template });
  await migrate(db);
  await db.close();
});
afterAll(async () => {
  if (postgres) {
    const db = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

describe(`persistence (${postgres ? 'PostgreSQL' : 'PGlite data directory'})`, () => {
  it('keeps committed writes across a close and reopen, and drops rolled-back ones', async () => {
    const db = await openDb(target);
    await db.query(`INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
      VALUES ('${'a'.repeat(24)}', 'Kept hammer', 'Stays.', '/x.svg', 1234, 1, 7)`);
    await db.transaction(async (tx) => {
      await tx.query(`UPDATE tools SET available_quantity = available_quantity - 2 WHERE id = $1`, ['a'.repeat(24)]);
      await tx.query(
        `INSERT INTO contact_messages (id, name, email, message) VALUES ('committed', 'A', 'a@x.yz', 'kept')`,
      );
    });
    await db
      .transaction(async (tx) => {
        await tx.query(
          `INSERT INTO contact_messages (id, name, email, message) VALUES ('rolled-back', 'B', 'b@x.yz', 'gone')`,
        );
        throw new Error('abort');
      })
      .catch(() => {});
    await db.close();

    const again = await openDb(target);
    expect(await again.query('SELECT name, available_quantity FROM tools WHERE id = $1', ['a'.repeat(24)])).toEqual([
      { name: 'Kept hammer', available_quantity: 5 },
    ]);
    expect(await contactCount(again, 'committed')).toBe(1);
    expect(await contactCount(again, 'rolled-back')).toBe(0);
    expect(await migrate(again)).toBe(0);
    await again.close();
  });

  it('keeps a committed write of a process killed with SIGKILL right after it', async () => {
    const script = path.join(dir, 'writer.mjs');
    writeFileSync(
      script,
      `const { openDb } = await import(${JSON.stringify(OPEN)});
      const db = await openDb(${JSON.stringify(target)});
      await db.transaction((tx) => tx.query("INSERT INTO contact_messages (id, name, email, message) VALUES ('killed', 'K', 'k@x.yz', 'survives')"));
      console.log('written');
      setInterval(() => {}, 1000);`,
    );
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('written') && resolve());
      void exited.then(() => reject(new Error(`writer exited before writing: ${stderr}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const db = await openDb(target);
    expect(await db.query("SELECT message FROM contact_messages WHERE id = 'killed'")).toEqual([
      { message: 'survives' },
    ]);
    expect(await contactCount(db, 'committed')).toBe(1);
    await db.close();
  });
});

describe.runIf(!postgres)('the embedded database’s buffer cache', () => {
  it('is 32MB unless PGLITE_SHARED_BUFFERS says otherwise, set at start without rewriting postgresql.conf', async () => {
    const conf = path.join(dir, 'pg', 'postgresql.conf');
    const written = readFileSync(conf, 'utf8');
    const small = await openDb(target);
    expect(await small.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '32MB' }]);
    await small.close();
    const larger = await openDb({ ...target, sharedBuffers: '64MB' });
    expect(await larger.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '64MB' }]);
    await larger.close();
    expect(readFileSync(conf, 'utf8')).toBe(written);
  });
});
