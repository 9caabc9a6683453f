// Both stores run our statements as named prepared statements (db/pglite-prepared.ts, db/postgres.ts).
// A table changed under one (another server's migration, on PostgreSQL) must not break it, alone or in a
// transaction, and statements built at run time beyond those kept prepared must still run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('statements built at run time beyond those kept prepared still run', async () => {
    for (let i = 0; i < 1100; i += 1) {
      const [{ v }] = await runtime.db.query<{ v: number }>(`SELECT $1::int + ${i} AS v`, [1]);
      expect(v).toBe(i + 1);
    }
  });
});
