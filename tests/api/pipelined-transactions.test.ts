// Statements a transaction sends together (db/client.ts: Promise.all of calls made before any await) run
// in the order sent and, on PostgreSQL, go out in one socket write with the transaction's BEGIN (issue 30:
// a write per statement was a fifth of the server's time while orders flowed). A failure among them
// leaves nothing behind, and nothing sent after a transaction ended reaches the database. A transaction that
// says which statements are its last (tx.last) sends COMMIT with them, and still commits only if they succeed.
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
      const { clients, writes } = await countingWrites(() =>
        runtime.db.transaction((tx) =>
          Promise.all([
            tx.query('SELECT label FROM pipelined WHERE id = $1', [1]),
            tx.query('SELECT label FROM pipelined WHERE id = $1', [4]),
            tx.query('SELECT count(*) FROM pipelined'),
          ]),
        ),
      );
      // One client, BEGIN with the three statements, then COMMIT.
      expect(clients).toBe(1);
      expect(writes).toBe(2);
    },
  );
});

describe('the last statements of a transaction (tx.last)', () => {
  const ids = async () => (await rows()).map((r) => r.id);

  it('commit with them', async () => {
    await runtime.db.transaction(async (tx) => {
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pipelined');
      tx.last?.();
      await tx.query('INSERT INTO pipelined VALUES ($1, $2)', [10 + n, 'last']);
    });
    expect(await ids()).toEqual([1, 4, 12]);
  });

  it('that fail roll back the whole transaction, and the connection is sound afterwards', async () => {
    const attempt = runtime.db.transaction(async (tx) => {
      await tx.query('INSERT INTO pipelined VALUES ($1, $2)', [20, 'before']);
      tx.last?.();
      await Promise.all([
        tx.query('INSERT INTO pipelined VALUES ($1, $2)', [21, 'fine']),
        tx.query('INSERT INTO pipelined VALUES ($1, $2)', [1, 'duplicate']),
      ]);
    });
    await expect(attempt).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).toEqual([1, 4, 12]);
    for (let i = 0; i < 12; i++) await runtime.db.transaction((tx) => tx.query('SELECT 1')); // every pooled client
    await runtime.db.transaction(async (tx) => {
      tx.last?.();
      await tx.query('INSERT INTO pipelined VALUES ($1, $2)', [22, 'after']);
    });
    expect(await ids()).toEqual([1, 4, 12, 22]);
  });

  it('are last: a statement sent after them is refused and never runs', async () => {
    let late: Promise<unknown> | undefined;
    await runtime.db.transaction(async (tx) => {
      tx.last?.();
      await tx.query('SELECT 1');
      late = tx.query('INSERT INTO pipelined VALUES ($1, $2)', [30, 'late']);
      await late.catch(() => {});
    });
    if (runtime.db.kind === 'postgres') await expect(late).rejects.toThrow(/closed/i);
    else await runtime.db.exec('DELETE FROM pipelined WHERE id = 30'); // PGlite has no last(): it ran in the transaction
    expect(await ids()).toEqual([1, 4, 12, 22]);
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'whose connection is lost leave no unhandled rejection behind (the COMMIT sent with them fails too)',
    async () => {
      const unhandled: unknown[] = [];
      const note = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', note);
      try {
        const attempt = runtime.db.transaction(async (tx) => {
          await tx.query('SELECT 1');
          tx.last?.();
          await tx.query('SELECT pg_terminate_backend(pg_backend_pid())');
        });
        await expect(attempt).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        process.off('unhandledRejection', note);
      }
      expect(unhandled).toEqual([]);
      expect(await ids()).toEqual([1, 4, 12, 22]);
    },
  );

  it.runIf(process.env.TEST_DB === 'postgres')('go out in one socket write with COMMIT on PostgreSQL', async () => {
    const { clients, writes } = await countingWrites(() =>
      runtime.db.transaction(async (tx) => {
        await tx.query('SELECT count(*) FROM pipelined');
        tx.last?.();
        await Promise.all([
          tx.query('UPDATE pipelined SET label = $2 WHERE id = $1', [22, 'updated']),
          tx.query('SELECT label FROM pipelined WHERE id = $1', [22]),
        ]);
      }),
    );
    // BEGIN with the count, then the two statements with COMMIT: no third write.
    expect(clients).toBe(1);
    expect(writes).toBe(2);
    expect((await rows()).find((r) => r.id === 22)?.label).toBe('updated');
  });
});

/** The socket writes of the clients the pool hands out while `run` runs ('acquire', before their first write). */
async function countingWrites(run: () => Promise<unknown>): Promise<{ clients: number; writes: number }> {
  const pool = runtime.db.pool!;
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
    await run();
  } finally {
    pool.off('acquire', counting as never);
    for (const u of undo) u();
  }
  return { clients: undo.length, writes };
}
