// PostgreSQL through node-postgres (DATABASE_URL): a pool with time limits, any number of servers.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  GENERIC_PLANS,
  isDatabaseUnavailable,
  isStorageUnavailable,
  PG_TIMEOUTS,
  STALE_PLAN_CODES,
  storageFailures,
  type Db,
  type Queryable,
  type TransactionOptions,
} from './client.ts';

/**
 * The PostgreSQL driver, loaded with `require` on first use: OpenTelemetry's pg instrumentation (tracing.ts,
 * started before the runtime opens) hooks `require`, not `import`.
 */
export const loadPg = (): typeof import('pg') => createRequire(import.meta.url)('pg') as typeof import('pg');

const DEADLOCK = '40P01';
/** A socket's cork and uncork (net.Socket): writes between them go out as one. */
interface Corkable {
  cork(): void;
  uncork(): void;
}
/** Connections per server's pool. */
const POOL_SIZE = 10;
/** Advisory-lock keys of background jobs (any stable numbers; they only need to differ). */
const JOB_KEYS: Record<string, number> = { 'hold-expiry': 727280 };
/**
 * The store's half of a job's lock: advisory locks are the whole database's, and stores in other schemas
 * of it (each API test file's, the bench's scratch stores) have jobs of their own. Keyed by the job alone,
 * a round of one store skipped the other's (its holds then ended 5 s late).
 */
const storeLockKey = (schema: string | undefined) =>
  createHash('sha256')
    .update(schema ?? '')
    .digest()
    .readInt32BE(0);

export async function openPostgres(url: string, schema?: string, applicationName = 'ironcrest'): Promise<Db> {
  const pg = loadPg();
  // NUMERIC and BIGINT come back as strings by default; our values fit in a JS number.
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    // Connections are kept once open: a new one is a new PostgreSQL backend, whose first statements load
    // its caches of the tables and plan again. The warm-up opens and warms all of them (host/warm-up.ts);
    // a first rush that opened one or two more had p99 73-130 ms, against 63-95 with none to open.
    min: POOL_SIZE,
    application_name: applicationName,
    connectionTimeoutMillis: PG_TIMEOUTS.connectMs,
    idleTimeoutMillis: PG_TIMEOUTS.idleMs,
    // Queries are sent without waiting for the one before (runTransaction sends BEGIN with its first statement).
    pipeline: true,
    // Server-side limits too: a statement or an abandoned transaction never holds locks for long.
    options: [
      `-c statement_timeout=${PG_TIMEOUTS.statementMs}`,
      `-c idle_in_transaction_session_timeout=${PG_TIMEOUTS.statementMs * 2}`,
      schema ? `-c search_path=${schema}` : '',
    ].join(' '),
  });
  // An idle client whose connection dies (a PostgreSQL restart) emits 'error' on the pool; unhandled,
  // that would end the process. The pool drops the client; the next query opens a new connection.
  pool.on('error', () => {});
  // A checked-out client (inside a transaction, or holding a job lock) emits 'error' too when its
  // connection dies; its pending query rejects and is answered 503, so the event itself needs no action.
  pool.on('connect', (client) => client.on('error', () => {}));
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const storeKey = storeLockKey(schema);
  const failures = storageFailures();
  const named = namedStatements();
  // A failed query's connection is dropped by the pool (pg-pool releases it with the error), so a
  // session that began read-only is not reused once the database takes writes again.
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    try {
      return (await pool.query(named.statement(sql, params))).rows as T[];
    } catch (error) {
      // Outside a transaction a statement whose plan went stale is simply run again, under its new name.
      if (!named.stale(sql, error)) return failures.note(error);
      return (await pool.query(named.statement(sql, params)).catch(failures.note)).rows as T[];
    }
  };
  const runTransaction = async <T>(
    fn: (tx: Queryable) => Promise<T>,
    { genericPlans }: TransactionOptions,
  ): Promise<T> => {
    const client = await pool.connect();
    let broken: Error | undefined;
    let begun = false;
    let ended = false;
    let corked = false;
    // last(): COMMIT goes out in the same write as the statements of that turn (one round trip fewer).
    let closing = false;
    let commit: Promise<{ command: string }> | undefined;
    const socket = (client as unknown as { connection: { stream: Corkable } }).connection.stream;
    /**
     * The pool's clients pipeline, and statements sent in one turn of the event loop go out in one write
     * (a caller that needs none of their results before sending the next sends them together), the first
     * with the transaction's BEGIN. On loopback a socket write is most of a statement's cost.
     */
    const send = async (config: string | { text: string; values?: unknown[]; name?: string }) => {
      // A statement sent late (after an await, once the transaction ended) must not reach a client back in the pool.
      if (ended) throw new Error('Transaction is closed');
      if (!corked) {
        corked = true;
        socket.cork();
        queueMicrotask(() => {
          corked = false;
          if (closing && !commit) {
            // The statements before it decide: if one fails, PostgreSQL answers this COMMIT with ROLLBACK.
            commit = client.query('COMMIT');
            // Awaited below, except when the connection is lost first: that is handled there, not unhandled.
            commit.catch(() => {});
            ended = true;
          }
          socket.uncork();
        });
      }
      if (begun) return client.query(config);
      begun = true;
      const begin = [
        client.query('BEGIN'),
        ...(genericPlans ? [client.query(named.statement(GENERIC_PLANS, []))] : []),
      ];
      return (await Promise.all([...begin, client.query(config)])).at(-1)!;
    };
    try {
      const result = await fn({
        query: async (sql, params = []) => {
          try {
            return (await send(named.statement(sql, params))).rows as never;
          } catch (error) {
            named.stale(sql, error); // the transaction is retried whole (below)
            throw error;
          }
        },
        exec: async (sql) => void (await send(sql)),
        last: () => void (closing = true),
      });
      ended = true;
      if (commit) {
        if ((await commit).command !== 'COMMIT') throw new Error('The transaction was rolled back');
      } else if (begun) await client.query('COMMIT');
      return result;
    } catch (error) {
      ended = true;
      // A session that could not write (read-only when it began) is not reused either.
      if (isDatabaseUnavailable(error) || isStorageUnavailable(error)) broken = error as Error;
      // A COMMIT already sent ended the transaction, whichever way (its answer is awaited before release).
      else if (commit) await commit.catch(() => {});
      else if (begun) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      return failures.note(error);
    } finally {
      // A client whose connection failed is destroyed, not handed to the next request.
      client.release(broken);
    }
  };
  return {
    kind: 'postgres',
    query,
    exec: async (sql) => void (await pool.query(sql)),
    async transaction(fn, options = {}) {
      // Two writers locking the same rows in opposite orders (a tool deleted while its orders are)
      // deadlock; PostgreSQL rolls one back whole, so running it again is safe and it then goes through.
      for (let attempt = 1; ; attempt++) {
        try {
          return await runTransaction(fn, options);
        } catch (error) {
          // A statement prepared before another server's migration changed its table: once more, renamed.
          const code = (error as { code?: string }).code;
          if ((code !== DEADLOCK && !STALE_PLAN_CODES.has(code!)) || attempt >= 3) throw error;
        }
      }
    },
    async once(job, fn) {
      const key = JOB_KEYS[job];
      if (key === undefined) throw new Error(`unknown job ${job}`);
      const keys = [storeKey, key];
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const [{ locked }] = (await client.query('SELECT pg_try_advisory_lock($1, $2) AS locked', keys)).rows;
        if (!locked) return undefined;
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, $2)', keys).catch((e: Error) => (broken = e));
        }
      } catch (error) {
        if (isDatabaseUnavailable(error)) broken = error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async writable() {
      const failed = failures.recent();
      if (failed) return { ok: false, reason: `Writes are failing: ${failed}` };
      // default_transaction_read_only applies as a session begins: a session that says read-only is
      // dropped, so the next check (and the next write) sees the database as a new session would.
      const client = await pool.connect();
      let readOnly = false;
      try {
        const { rows } = await client.query<{ readOnly: string; standby: boolean }>(
          `SELECT current_setting('transaction_read_only') AS "readOnly", pg_is_in_recovery() AS standby`,
        );
        readOnly = rows[0].readOnly === 'on' || rows[0].standby;
      } finally {
        client.release(readOnly ? new Error('read-only session') : undefined);
      }
      return readOnly ? { ok: false, reason: 'Writes are failing: the database is read-only' } : { ok: true };
    },
    close: () => pool.end(),
    pool,
  };
}

/** Statements kept prepared on each connection; past this (SQL built at run time), a statement runs unnamed. */
const MAX_PREPARED = 1000;

/**
 * Each of our statements (a few hundred fixed strings) is prepared once per connection under a name, then
 * only bound and executed: PostgreSQL parses and plans it once per connection, not on every call. While
 * orders flowed, that cut PostgreSQL's CPU by about a third (its backends share the server's cores).
 * With PgBouncer in transaction mode this needs PgBouncer 1.21+ with max_prepared_statements set.
 */
function namedStatements() {
  const names = new Map<string, string>();
  let made = 0;
  return {
    statement(text: string, values: unknown[]) {
      let name = names.get(text);
      if (!name && names.size < MAX_PREPARED) names.set(text, (name = `ic${made++}`));
      return name ? { name, text, values } : { text, values };
    },
    /** Whether the error says the statement's plan is stale; if so its next run prepares it afresh, renamed. */
    stale(text: string, error: unknown): boolean {
      if (!STALE_PLAN_CODES.has((error as { code?: string }).code!)) return false;
      names.delete(text);
      return true;
    },
  };
}
