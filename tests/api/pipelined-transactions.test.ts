// Statements a transaction sends together (db/client.ts: Promise.all of calls made before any await) run
// in the order sent and, on PostgreSQL, go out in one socket write with the transaction's BEGIN (issue 30:
// a write per statement was a fifth of the server's time while orders flowed). A failure among them
// leaves nothing behind, and nothing sent after a transaction ended reaches the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import type { Queryable } from '../../src/server/db/client';
import { createTestRuntime, type TestRuntime } from './harness';

let runtime: TestRuntime;
beforeAll(async () => {
  runtime = await createTestRuntime();
  await runtime.db.exec('CREATE TABLE pipelined (id int PRIMARY KEY, label text NOT NULL)');
});
afterAll(async () => {
  await runtime.db.exec('DROP TABLE IF EXISTS pipelined');
  await runtime.close();
});

const rows = () => runtime.db.query<{ id: number; label: string }>('SELECT id, label FROM pipelined ORDER BY id');

describe('statements sent together in a transaction', () => {
  it('run in the order sent: each sees the ones before it', async () => {
    const [, , seen] = await runtime.db.transaction((tx) =>
      Promise.all([
        tx.query('INSERT INTO pipelined VALUES ($1, $2)', [1, 'one']),
        tx.query('UPDATE pipelined SET label = $2 WHERE id = $1', [1, 'first']),
        tx.query<{ label: string }>('SELECT label FROM pipelined WHERE id = $1', [1]),
      ]),
    );
    expect(seen).toEqual([{ label: 'first' }]);
    expect(await rows()).toEqual([{ id: 1, label: 'first' }]);
  });

  it('a failure among them rolls back the statements before and after it', async () => {
    const attempt = runtime.db.transaction((tx) =>
      Promise.all([
        tx.query('INSERT INTO pipelined VALUES ($1, $2)', [2, 'two']),
        tx.query('INSERT INTO pipelined VALUES ($1, $2)', [1, 'again']), // duplicate key
        tx.query('INSERT INTO pipelined VALUES ($1, $2)', [3, 'three']),
      ]),
    );
    await expect(attempt).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([{ id: 1, label: 'first' }]);
    // The connection is sound afterwards.
    await runtime.db.transaction((tx) => tx.query('INSERT INTO pipelined VALUES ($1, $2)', [4, 'four']));
    expect((await rows()).map((r) => r.id)).toEqual([1, 4]);
  });

  it('a statement sent after its transaction ended is refused, and never runs', async () => {
    let kept: Queryable | undefined;
    await runtime.db.transaction(async (tx) => {
      kept = tx;
      await tx.query('SELECT 1');
    });
    await expect(kept!.query('INSERT INTO pipelined VALUES ($1, $2)', [5, 'late'])).rejects.toThrow(/closed/i);
    await runtime.db.query('SELECT 1');
    expect((await rows()).map((r) => r.id)).toEqual([1, 4]);
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'go out in one socket write on PostgreSQL, the first with BEGIN',
    async () => {
      const pool = runtime.db.pool!;
      // Count the socket writes of the client the pool hands the transaction ('acquire', before its first write).
      let writes = 0;
      const undo: (() => void)[] = [];
      const counting = (client: { connection: { stream: Socket } }) => {
        const socket = client.connection.stream;
        const { _write, _writev } = socket as unknown as Record<string, (...a: unknown[]) => unknown>;
        Object.assign(socket, {
          _write: (...a: unknown[]) => (writes++, _write.apply(socket, a)),
          _writev: (...a: unknown[]) => (writes++, _writev.apply(socket, a)),
        });
        undo.push(() => Object.assign(socket, { _write, _writev }));
      };
      pool.on('acquire', counting as never);
      try {
        await runtime.db.transaction((tx) =>
          Promise.all([
            tx.query('SELECT label FROM pipelined WHERE id = $1', [1]),
            tx.query('SELECT label FROM pipelined WHERE id = $1', [4]),
            tx.query('SELECT count(*) FROM pipelined'),
          ]),
        );
      } finally {
        pool.off('acquire', counting as never);
        for (const u of undo) u();
      }
      // One client, BEGIN with the three statements, then COMMIT.
      expect(undo).toHaveLength(1);
      expect(writes).toBe(2);
    },
  );
});
