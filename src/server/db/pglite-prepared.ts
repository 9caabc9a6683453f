// PGlite's own query() parses and plans every statement again, in six calls into the WebAssembly backend.
// Our statements are a few hundred fixed strings, so each is prepared once under a name and then run
// with one call (Bind, Describe, Execute, Sync): a statement costs about a third of its CPU
// (0.06 against 0.17-0.20 ms in a micro-benchmark), and PGlite runs on the server's own thread.
// Transactions too: PGlite's transaction() sends BEGIN and COMMIT as text, parsed every time, in four
// calls; here BEGIN goes out with the transaction's first statement and COMMIT is prepared. The messages
// are built and the answers read by db/pglite-wire.ts, not by PGlite's protocol code.
import type { PGlite } from '@electric-sql/pglite';
import { GENERIC_PLANS, STALE_PLAN_CODES, type TransactionOptions } from './client.ts';
import { controlMessages, readAnswers, statementMessages, SYNC, type Answer, type Parsers } from './pglite-wire.ts';

/**
 * PGlite runs on the server's thread, and a statement's WebAssembly runs without a pause. Work waiting for
 * its lock resumes in microtasks, so queued transactions ran back to back (tens of milliseconds while orders
 * flowed) with every request that arrived meanwhile waiting for the event loop. So once SLICE_MS have passed
 * since the loop last had such a turn, the next transaction (or statement on its own) that takes the lock first
 * lets the loop take in and answer what is ready (a read from memory costs tens of microseconds). A turn
 * before every one instead split a rush into more, smaller batches (each turn let more requests in to start
 * their own): the first 200-buyer rush after a start took p99 334 ms, against 146–154 with no turns and
 * 138–147 with the slice (bench/before-after.md, 2026-12-02).
 */
const SLICE_MS = 3;

/** Statements kept prepared; past this (SQL built at run time), a statement runs unnamed and is not kept. */
const MAX_PREPARED = 1000;

/** PGlite's module, as db/pglite.ts imports it: only an embedded store loads it (not one on PostgreSQL). */
type PgliteModule = Pick<typeof import('@electric-sql/pglite'), 'parse' | 'protocol'>;

interface Prepared {
  name: string;
  paramTypes: number[];
}

/**
 * Runs statements on `pg` as named prepared statements. The caller holds PGlite's locks (as its query()
 * does): runExclusive, and outside a transaction the transaction lock too. No call syncs the file system:
 * the server's stores (a directory on disk, or memory) write through and have nothing to sync.
 */
export function preparedStatements(pg: PGlite, { parse, protocol }: PgliteModule) {
  const prepared = new Map<string, Prepared>();
  let made = 0;
  /** When the event loop last had its turn here (takeTurns). */
  let sliceStart = 0;
  async function takeTurns(): Promise<void> {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  }
  const { serialize } = protocol;

  async function prepare(sql: string): Promise<Prepared> {
    const known = prepared.get(sql);
    if (known) return known;
    const name = prepared.size < MAX_PREPARED ? `ic${made++}` : '';
    const { messages } = await pg.execProtocol(
      joined(
        serialize.parse({ name, text: sql, types: [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    if (name) prepared.set(sql, statement);
    return statement;
  }

  /** The backend's answers to `message`, read from its bytes as they come out of the WebAssembly memory. */
  async function send(message: Uint8Array): Promise<Answer[]> {
    const chunks: Uint8Array[] = [];
    await pg.execProtocolRawStream(message, { syncToFs: false, onRawData: (chunk) => void chunks.push(chunk.slice()) });
    return readAnswers(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), pg.parsers as Parsers);
  }

  /** Bind and Execute of a prepared statement that takes no parameters and answers no rows (BEGIN, COMMIT). */
  async function control(sql: string): Promise<Uint8Array> {
    return controlMessages((await prepare(sql)).name);
  }

  /**
   * `again`: a stale plan is prepared again and the statement run once more (not inside a transaction, which
   * the error ended). `before`: messages sent ahead of the statement in the same call (a transaction's BEGIN).
   */
  async function run<T>(sql: string, params: unknown[], again: boolean, before?: Uint8Array): Promise<Answer<T>> {
    const { name, paramTypes } = await prepare(sql);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[paramTypes[i]];
      return serializer ? (serializer(value) as string | Uint8Array) : String(value);
    });
    try {
      // One answer per command: with a BEGIN ahead of it, the statement's is the last.
      return (await send(statementMessages(name, values, before))).at(-1) as Answer<T>;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (name && code && STALE_PLAN_CODES.has(code)) {
        prepared.delete(sql);
        await pg.execProtocol(joined(serialize.close({ type: 'S', name }), serialize.sync()), { syncToFs: false });
        if (again) return run(sql, params, false);
      }
      // As PGlite's query() does: the statement beside the error (not its parameters: a buyer's details).
      Object.assign(error as object, { query: sql });
      throw error;
    }
  }

  /**
   * Runs fn in one transaction, as pg.transaction does: it holds the transaction lock, so a statement on its
   * own waits for the end; it rolls back if fn throws, and a statement sent after the end is refused.
   * Statements run in the order they are sent (PGlite's query lock is first come, first served), and the
   * first to run takes BEGIN with it (and, with `genericPlans`, the SET LOCAL that asks for them).
   */
  function transaction<T>(fn: (tx: Transaction) => Promise<T>, { genericPlans }: TransactionOptions = {}): Promise<T> {
    return pg._runExclusiveTransaction(async () => {
      await takeTurns();
      let begun = false;
      let closed = false;
      const begin = async () => {
        if (begun) return undefined;
        begun = true;
        return genericPlans ? joined(await control('BEGIN'), await control(GENERIC_PLANS)) : control('BEGIN');
      };
      const refuseClosed = () => {
        if (closed) throw new Error('Transaction is closed');
      };
      const tx: Transaction = {
        query: (sql, params) => {
          refuseClosed();
          return pg.runExclusive(async () => {
            let before = await begin();
            // A statement not prepared yet is parsed inside the transaction, as on PostgreSQL: one that
            // cannot be parsed aborts the transaction (later statements and the COMMIT fail), instead of
            // the statements after it running outside one.
            if (before && !prepared.has(sql)) {
              await send(joined(before, SYNC));
              before = undefined;
            }
            return run(sql, params, false, before);
          });
        },
        exec: (sql) => {
          refuseClosed();
          return pg.runExclusive(async () => {
            const before = await begin();
            if (before) await send(joined(before, SYNC));
            await send(serialize.query(sql));
          });
        },
      };
      try {
        const result = await fn(tx);
        closed = true;
        if (begun) await end('COMMIT');
        return result;
      } catch (error) {
        if (!closed && begun) await end('ROLLBACK');
        closed = true;
        throw error;
      }
    });
  }

  /** Ends the transaction; a COMMIT that PostgreSQL turned into a rollback (a failed statement) throws. */
  async function end(command: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    const [done] = await pg.runExclusive(async () => send(joined(await control(command), SYNC)));
    if (command === 'COMMIT' && done?.command === 'ROLLBACK')
      throw Object.assign(new Error('Transaction was rolled back instead of committed'), { code: '25P02' });
  }

  return {
    /** A statement on its own: waits for any transaction under way, as pg.query does. */
    alone: <T>(sql: string, params: unknown[]) =>
      pg._runExclusiveTransaction(async () => {
        await takeTurns();
        return pg.runExclusive(() => run<T>(sql, params, true));
      }),
    transaction,
  };
}

/** A transaction's statements, as `transaction` hands them to its fn. */
export interface Transaction {
  query<T>(sql: string, params: unknown[]): Promise<Answer<T>>;
  /** A script of statements without parameters, as text (a migration). */
  exec(sql: string): Promise<void>;
}

function joined(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
