// Both stores run our statements as named prepared statements (db/pglite-prepared.ts, db/postgres.ts).
// A table changed under one (another server's migration, on PostgreSQL) must not break it, alone or in a
// transaction, and statements built at run time beyond those kept prepared must still run. A transaction
// can ask for generic plans (the order path), so PostgreSQL does not plan its statements on every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/server/db/client';
import { createTestRuntime, type TestRuntime } from './harness';

let runtime: TestRuntime;
beforeAll(async () => {
  runtime = await createTestRuntime();
  await runtime.db.exec('CREATE TABLE shifting (id int PRIMARY KEY)');
  await runtime.db.query('INSERT INTO shifting VALUES ($1)', [1]);
});
afterAll(async () => {
  await runtime.db.exec('DROP TABLE IF EXISTS shifting');
  await runtime.close();
});

describe('prepared statements', () => {
  it('a statement whose table changed is prepared again, alone and inside a transaction', async () => {
    const { db } = runtime;
    // Run it on every connection the pool holds (PostgreSQL prepares per connection).
    for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: 12 }, () => db.query('SELECT * FROM shifting')));
    await db.transaction((tx) => tx.query('SELECT * FROM shifting WHERE id = $1', [1]));
    await db.exec(`ALTER TABLE shifting ADD COLUMN label text DEFAULT 'new'`);
    const answers = await Promise.all(Array.from({ length: 12 }, () => db.query('SELECT * FROM shifting')));
    for (const rows of answers) expect(rows).toEqual([{ id: 1, label: 'new' }]);
    expect(await db.transaction((tx) => tx.query('SELECT * FROM shifting WHERE id = $1', [1]))).toEqual([
      { id: 1, label: 'new' },
    ]);
  });

  it('a transaction with genericPlans plans its statements once, not for their values, and only itself', async () => {
    const { db } = runtime;
    // How this connection has planned `sql` so far (read in the same transaction: the same connection).
    const plans = async (tx: Queryable, sql: string) =>
      (
        await tx.query<{ generic: number; custom: number }>(
          `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement = $1`,
          [sql],
        )
      )[0];
    // An array parameter: PostgreSQL's default plans such a statement for its values on every run.
    const generic = 'SELECT id FROM shifting WHERE id = ANY($1) /* generic */';
    const planned = await db.transaction(
      async (tx) => {
        await tx.query(generic, [[1]]);
        return plans(tx, generic);
      },
      { genericPlans: true },
    );
    expect(planned).toEqual({ generic: 1, custom: 0 });
    const auto = 'SELECT id FROM shifting WHERE id = ANY($1) /* auto */';
    const plannedAuto = await db.transaction(async (tx) => {
      await tx.query(auto, [[1]]);
      return plans(tx, auto);
    });
    expect(plannedAuto).toEqual({ generic: 0, custom: 1 });
    // SET LOCAL: the setting ended with its transaction, on every connection.
    const modes = await Promise.all(
      Array.from({ length: 12 }, () => db.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`)),
    );
    for (const [{ mode }] of modes) expect(mode).toBe('auto');
  });

  it('statements built at run time beyond those kept prepared still run', async () => {
    for (let i = 0; i < 1100; i += 1) {
      const [{ v }] = await runtime.db.query<{ v: number }>(`SELECT $1::int + ${i} AS v`, [1]);
      expect(v).toBe(i + 1);
    }
  });
});
