// The embedded store runs each statement as a named prepared statement (db/pglite-prepared.ts): the answers
// must be those of PGlite's own query(), errors must leave the connection usable, a table changed under a
// prepared statement must not break it, and a statement on its own must wait for a transaction under way.
// Transactions are ours too (BEGIN with the first statement, COMMIT prepared): they must keep PGlite's
// transaction()'s promises.
import * as pglite from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { openPglite } from '../../src/server/db/pglite';
import { preparedStatements } from '../../src/server/db/pglite-prepared';

let db: Db;
beforeAll(async () => {
  db = await openPglite({ memory: true });
  await db.exec(`CREATE TABLE things (
    id text PRIMARY KEY, n int NOT NULL, big bigint, price numeric(10,2), ok boolean, tags text[],
    data jsonb, blob bytea, at timestamptz)`);
});
afterAll(() => db.close());

describe('prepared statements on PGlite', () => {
  it('answers as PGlite query() does, for every type we store, the second time as the first', async () => {
    const at = new Date('2026-11-28T01:02:03.456Z');
    const row = {
      id: 'a',
      n: 7,
      big: '9007199254740993',
      price: '12.50',
      ok: true,
      tags: ['x', 'y,z'],
      data: { name: 'Hammer', sizes: [1, 2] },
      blob: new Uint8Array([0, 1, 255]),
      at,
    };
    const insert = `INSERT INTO things (id, n, big, price, ok, tags, data, blob, at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`;
    const [inserted] = await db.query(insert, Object.values(row));
    expect(inserted).toEqual({ ...row, big: 9007199254740993n, price: '12.50' });
    const [again] = await db.query(insert, [...Object.values({ ...row, id: 'b', data: null, tags: null })]);
    expect(again).toMatchObject({ id: 'b', data: null, tags: null, at });
    for (let i = 0; i < 3; i++)
      expect(await db.query('SELECT id, n FROM things WHERE id = $1', ['a'])).toEqual([{ id: 'a', n: 7 }]);
    expect(await db.query('SELECT id FROM things WHERE id = $1', ['nobody'])).toEqual([]);
  });

  it('an error answers with its code and leaves the connection usable; in a transaction it rolls back', async () => {
    await db.query(`INSERT INTO things (id, n) VALUES ($1, $2)`, ['dup', 1]);
    await expect(db.query(`INSERT INTO things (id, n) VALUES ($1, $2)`, ['dup', 2])).rejects.toMatchObject({
      code: '23505',
    });
    await expect(db.query('SELECT nope FROM things')).rejects.toMatchObject({ code: '42703' });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`UPDATE things SET n = 5 WHERE id = $1`, ['dup']);
        await tx.query(`INSERT INTO things (id, n) VALUES ($1, $2)`, ['dup', 3]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT n FROM things WHERE id = $1', ['dup'])).toEqual([{ n: 1 }]);
  });

  it('a table changed under a prepared statement is prepared again', async () => {
    await db.exec('CREATE TABLE shifting (id int PRIMARY KEY)');
    await db.query('INSERT INTO shifting VALUES ($1)', [1]);
    expect(await db.query('SELECT * FROM shifting')).toEqual([{ id: 1 }]);
    await db.exec(`ALTER TABLE shifting ADD COLUMN label text DEFAULT 'new'`);
    expect(await db.query('SELECT * FROM shifting')).toEqual([{ id: 1, label: 'new' }]);
  });

  it('a statement on its own waits for the transaction under way and never sees its uncommitted rows', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO things (id, n) VALUES ($1, $2)`, ['pending', 1]);
      await held;
      throw new Error('changed my mind');
    });
    await new Promise((r) => setTimeout(r, 20));
    const outside = db.query<{ count: number }>('SELECT count(*)::int AS count FROM things WHERE id = $1', ['pending']);
    release();
    await expect(tx).rejects.toThrow('changed my mind');
    expect(await outside).toEqual([{ count: 0 }]);
  });

  it('reads answers larger than one chunk of the backend, NULLs, and text past ASCII', async () => {
    const rows = await db.query<{ n: number; label: string | null }>(
      `SELECT g AS n, CASE WHEN g % 7 = 0 THEN NULL ELSE 'Zange ø ' || g || ' 🔨' END AS label
         FROM generate_series(1, $1::int) AS g`,
      [40_000],
    );
    expect(rows).toHaveLength(40_000);
    expect(rows[0]).toEqual({ n: 1, label: 'Zange ø 1 🔨' });
    expect(rows[6]).toEqual({ n: 7, label: null });
    expect(rows.at(-1)).toEqual({ n: 40_000, label: 'Zange ø 40000 🔨' });
  });

  it("an error carries the backend's fields, as node-postgres's do", async () => {
    await db.query(`INSERT INTO things (id, n) VALUES ($1, $2)`, ['fields', 1]);
    await expect(db.query(`INSERT INTO things (id, n) VALUES ($1, $2)`, ['fields', 2])).rejects.toMatchObject({
      code: '23505',
      severity: 'ERROR',
      table: 'things',
      constraint: 'things_pkey',
      detail: 'Key (id)=(fields) already exists.',
      message: 'duplicate key value violates unique constraint "things_pkey"',
    });
  });

  it('statements built at run time beyond what is kept still run', async () => {
    for (let i = 0; i < 1100; i += 1) {
      const [{ v }] = await db.query<{ v: number }>(`SELECT $1::int + ${i} AS v`, [1]);
      expect(v).toBe(i + 1);
    }
  });
});

describe('transactions on PGlite', () => {
  it('statements sent together run in order inside it, and roll back together', async () => {
    await db.exec('CREATE TABLE together (id int PRIMARY KEY)');
    await expect(
      db.transaction((tx) =>
        Promise.all([
          tx.query('INSERT INTO together VALUES ($1)', [1]),
          tx.query('INSERT INTO together VALUES ($1)', [2]),
          tx.query('INSERT INTO together VALUES ($1)', [1]),
        ]),
      ),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT id FROM together')).toEqual([]);
    await db.transaction((tx) =>
      Promise.all([
        tx.query('INSERT INTO together VALUES ($1)', [1]),
        tx.query('INSERT INTO together VALUES ($1)', [2]),
      ]),
    );
    expect(await db.query('SELECT id FROM together ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('a failed statement whose error fn swallowed makes the COMMIT fail: nothing of it is kept', async () => {
    await db.exec('CREATE TABLE swallowed (id int PRIMARY KEY)');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO swallowed VALUES ($1)', [1]);
        await tx.query('INSERT INTO swallowed VALUES ($1)', [1]).catch(() => undefined);
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect(await db.query('SELECT id FROM swallowed')).toEqual([]);
  });

  it('a first statement that cannot be prepared aborts the transaction, as on PostgreSQL', async () => {
    await db.exec('CREATE TABLE unprepared (id int PRIMARY KEY)');
    // fn goes on after the error: the next statement is refused and nothing is kept.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('SELEC nothing', []).catch(() => undefined);
        await tx.query('INSERT INTO unprepared VALUES ($1)', [1]);
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    // fn swallows the error and ends: the COMMIT fails, and nothing is kept.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('SELEC nothing', []).catch(() => undefined);
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect(await db.query('SELECT id FROM unprepared')).toEqual([]);
  });

  it('refuses a statement sent after its end, and a script (exec) runs inside it', async () => {
    let late!: Parameters<Parameters<Db['transaction']>[0]>[0];
    await db.transaction(async (tx) => {
      late = tx;
      await tx.exec('CREATE TABLE scripted (id int PRIMARY KEY); INSERT INTO scripted VALUES (1)');
    });
    await expect(late.query('SELECT 1')).rejects.toThrow('Transaction is closed');
    await expect(
      db.transaction(async (tx) => {
        await tx.exec('INSERT INTO scripted VALUES (2)');
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await db.query('SELECT id FROM scripted')).toEqual([{ id: 1 }]);
  });

  it('takes two calls into the backend for a one-statement transaction, and never sends BEGIN or COMMIT as text', async () => {
    const pg = await pglite.PGlite.create();
    const sent: Uint8Array[] = [];
    const counted = new Proxy(pg, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        const method = (value as (...a: unknown[]) => unknown).bind(target);
        // Every way into the backend (a call PGlite makes on itself, inside one, is not counted).
        if (typeof key === 'string' && key.startsWith('execProtocol'))
          return (message: Uint8Array, ...rest: unknown[]) => (sent.push(message), method(message, ...rest));
        return method;
      },
    });
    try {
      const statements = preparedStatements(counted, pglite);
      const once = () => statements.transaction((tx) => tx.query('SELECT $1::int AS n', [1]));
      await once();
      sent.length = 0;
      const result = await once();
      expect(result.rows).toEqual([{ n: 1 }]);
      expect(sent).toHaveLength(2);
      // A simple-protocol Query message starts with 'Q'; ours are Bind ('B') … Sync.
      expect(sent.map((m) => String.fromCharCode(m[0]))).toEqual(['B', 'B']);
      // And no statement of its own: a transaction that sends none costs nothing.
      sent.length = 0;
      await statements.transaction(async () => 'nothing');
      expect(sent).toHaveLength(0);
    } finally {
      await pg.close();
    }
  });

  it('lets the event loop answer what is waiting between long transactions queued behind each other', async () => {
    // Requests served from memory wait for the loop; PGlite's work queued on its lock resumes in microtasks.
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    // Each holds the thread for more than the slice it may have before the loop gets a turn (a few ms).
    await Promise.all(
      Array.from({ length: 5 }, () =>
        db.transaction(async (tx) => {
          await tx.query('SELECT count(*) AS n FROM generate_series(1, 400000)', []);
          seen.push(turns);
        }),
      ),
    );
    done = true;
    expect(new Set(seen).size).toBe(5);
  });
});
