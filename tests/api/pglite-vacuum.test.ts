// The embedded store runs PostgreSQL in single-user mode, where no autovacuum runs (db/pglite-vacuum.ts
// does its job): a table that changes is vacuumed and analyzed once autovacuum's thresholds are passed, a
// table that did not is left alone, and an old one is frozen before wraparound could stop writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteVacuum, vacuumDue } from '../../src/server/db/pglite-vacuum';
import { createTestRuntime, type TestRuntime } from './harness';

const embedded = process.env.TEST_DB !== 'postgres';

describe.runIf(embedded)('the embedded store vacuums itself', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await createTestRuntime();
    await runtime.db.exec(`
      CREATE TABLE churn (id int PRIMARY KEY, n int NOT NULL);
      INSERT INTO churn SELECT g, 0 FROM generate_series(1, 1000) g;`);
    await vacuumDue(runtime.db); // the store's own tables and churn's inserts: a clean start
  });
  afterAll(async () => {
    await runtime.db.exec('DROP TABLE IF EXISTS churn');
    await runtime.close();
  });

  const stats = async () =>
    (
      await runtime.db.query<{ dead: number; vacuums: number; analyzed: boolean }>(
        `SELECT n_dead_tup::int AS dead, vacuum_count::int AS vacuums, last_analyze IS NOT NULL AS analyzed
           FROM pg_stat_user_tables WHERE relname = 'churn'`,
      )
    )[0];

  it('vacuums and analyzes a table whose dead rows passed the threshold (50 + 20% of its rows)', async () => {
    const before = await stats();
    for (let i = 0; i < 3; i++) await runtime.db.exec('UPDATE churn SET n = n + 1');
    // A backend publishes its counts at most once a second, as the store's do in service; pruning a page
    // as it fills removes a few of the 3,000 dead rows on the way.
    await expect.poll(async () => (await stats()).dead, { timeout: 5000 }).toBeGreaterThan(2500);

    const done = await vacuumDue(runtime.db);
    expect(done.find((d) => d.table === 'public.churn')).toMatchObject({ ran: 'VACUUM (ANALYZE) public.churn' });
    const after = await stats();
    expect(after.dead).toBe(0);
    expect(after.vacuums).toBe(before.vacuums + 1);
    expect(after.analyzed).toBe(true);
  });

  it('leaves a table alone below the thresholds', async () => {
    await runtime.db.exec('UPDATE churn SET n = n + 1 WHERE id <= 20');
    await expect.poll(async () => (await stats()).dead, { timeout: 5000 }).toBe(20);
    const done = await vacuumDue(runtime.db);
    expect(done.map((d) => d.table)).not.toContain('public.churn');
    expect((await stats()).dead).toBe(20);
  });

  it('freezes a table whose oldest transaction id is older than the freeze age', async () => {
    const age = async () =>
      (
        await runtime.db.query<{ age: number }>(
          `SELECT age(relfrozenxid)::int AS age FROM pg_class WHERE relname = 'churn'`,
        )
      )[0].age;
    // A transaction each, so the table's age passes what one round's ANALYZEs of the other tables add.
    for (let i = 0; i < 100; i++) await runtime.db.exec('UPDATE churn SET n = n + 1 WHERE id = 1');
    const old = await age();
    const done = await vacuumDue(runtime.db, old - 1);
    expect(done.find((d) => d.table === 'public.churn')?.ran).toBe('VACUUM (FREEZE, ANALYZE) public.churn');
    expect(await age()).toBeLessThan(old);
  });

  it('runs on its own every round while the store serves', async () => {
    for (let i = 0; i < 2; i++) await runtime.db.exec('UPDATE churn SET n = n + 1');
    await expect.poll(async () => (await stats()).dead, { timeout: 5000 }).toBeGreaterThan(1500);
    const before = (await stats()).vacuums;
    const vacuum = pgliteVacuum(runtime.db, { everyMs: 20 });
    try {
      await expect.poll(async () => (await stats()).vacuums, { timeout: 5000 }).toBeGreaterThan(before);
    } finally {
      await vacuum.stop();
    }
    expect((await stats()).dead).toBe(0);
  });
});
