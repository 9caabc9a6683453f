// PGlite's own query() parses and plans every statement again, in six calls into the WebAssembly backend.
// Our statements are a few hundred fixed strings, so each is prepared once under a name and then run
// with one call (Bind, Describe, Execute, Sync): a statement costs about a third of its CPU
// (0.06 against 0.17-0.20 ms in a micro-benchmark), and PGlite runs on the server's own thread.
import type { PGlite, Results } from '@electric-sql/pglite';
import { STALE_PLAN_CODES } from './client.ts';

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

  /** `again`: a stale plan is prepared again and the statement run once more (not inside a transaction, which the error ended). */
  async function run<T>(sql: string, params: unknown[], again: boolean): Promise<Results<T>> {
    const { name, paramTypes } = await prepare(sql);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[paramTypes[i]];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const { messages } = await pg.execProtocol(
        joined(
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ),
        { syncToFs: false },
      );
      return parse.parseResults(messages, pg.parsers)[0] as Results<T>;
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

  return {
    /** A statement inside a transaction of pg.transaction (which holds the transaction lock). */
    inTransaction: <T>(sql: string, params: unknown[]) => pg.runExclusive(() => run<T>(sql, params, false)),
    /** A statement on its own: waits for any transaction under way, as pg.query does. */
    alone: <T>(sql: string, params: unknown[]) =>
      pg._runExclusiveTransaction(() => pg.runExclusive(() => run<T>(sql, params, true))),
  };
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
