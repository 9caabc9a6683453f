// One small interface over PGlite (embedded, default) and node-postgres (DATABASE_URL).
// Plain SQL keeps the conditional updates that guard stock visible where they matter.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}
export interface Db extends Queryable {
  /** Runs fn in one transaction; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs fn only if no other process sharing this database runs the same job now (background work
   * such as hold expiry runs once across servers); returns undefined when another holds it.
   */
  once<T>(job: string, fn: () => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
  /** PostgreSQL only: the pool (rate-limit counters, LISTEN, pool metrics share its settings). */
  readonly pool?: Pool;
}

/** Timeouts for PostgreSQL, so a database that hangs answers 503 instead of holding requests forever. */
export const PG_TIMEOUTS = { connectMs: 5000, statementMs: 15_000, idleMs: 30_000 };

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown (pg_terminate_backend, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
  '53300', // too_many_connections
  '57014', // statement_timeout: the database is too slow to answer now
]);

/** Whether an error means the database is away (answer 503 and try later), not that the query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|terminating connection/i.test(
    e.message ?? '',
  );
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** PostgreSQL only: run everything inside this schema (tests isolate files this way). */
  schema?: string;
  /** PGlite only: start from a dumped data directory (tests copy a prepared template). */
  loadDataDir?: Blob;
  /** PGlite only: keep everything in memory. */
  memory?: boolean;
  /** PostgreSQL only: how this pool's connections are named in pg_stat_activity. */
  applicationName?: string;
}

export async function openDb(options: OpenOptions): Promise<Db> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.schema, options.applicationName)
    : openPglite(options);
}

async function openPglite(options: OpenOptions): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  let dataDir: string | undefined;
  if (!options.memory && options.dataDir) {
    dataDir = path.join(options.dataDir, 'pg');
    mkdirSync(dataDir, { recursive: true });
  }
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  const pg = await PGlite.create({ dataDir, loadDataDir: options.loadDataDir }).catch((error) => {
    unlock();
    throw error;
  });
  const query = async <T>(sql: string, params: unknown[] = []) => (await pg.query<T>(sql, params)).rows;
  return {
    kind: 'pglite',
    query,
    exec: async (sql) => void (await pg.exec(sql)),
    transaction: (fn) =>
      pg.transaction((tx) =>
        fn({
          query: async (sql, params = []) => (await tx.query(sql, params)).rows as never,
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      ),
    // One process owns a PGlite directory, so its jobs never overlap with another server's.
    once: (_job, fn) => fn(),
    close: async () => {
      await pg.close();
      unlock();
    },
    // Tests dump a migrated template once and load it per file.
    dump: () => pg.dumpDataDir('none'),
  } as Db & { dump(): Promise<Blob | File> };
}

/**
 * Two processes writing one PGlite directory silently lose writes: the first to open it holds it
 * (its pid in a lock file) until it closes; a lock left by a process that died is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, '.ironcrest-lock');
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && alive(pid)) {
      throw new Error(
        `The embedded database in ${dataDir} is open in another process (pid ${pid}). Stop that store first, or use DATABASE_URL (PostgreSQL) to share one database.`,
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const DEADLOCK = '40P01';
/** Advisory-lock keys of background jobs (any stable numbers; they only need to differ). */
const JOB_KEYS: Record<string, number> = { 'hold-expiry': 727280 };

async function openPostgres(url: string, schema?: string, applicationName = 'ironcrest'): Promise<Db> {
  const { default: pg } = await import('pg');
  // NUMERIC and BIGINT come back as strings by default; our values fit in a JS number.
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    application_name: applicationName,
    connectionTimeoutMillis: PG_TIMEOUTS.connectMs,
    idleTimeoutMillis: PG_TIMEOUTS.idleMs,
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
  const query = async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
  const runTransaction = async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async (sql, params = []) => (await client.query(sql, params)).rows as never,
        exec: async (sql) => void (await client.query(sql)),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw error;
    } finally {
      // A client whose connection failed is destroyed, not handed to the next request.
      client.release(broken);
    }
  };
  return {
    kind: 'postgres',
    query,
    exec: async (sql) => void (await pool.query(sql)),
    async transaction(fn) {
      // Two writers locking the same rows in opposite orders (a tool deleted while its orders are)
      // deadlock; PostgreSQL rolls one back whole, so running it again is safe and it then goes through.
      for (let attempt = 1; ; attempt++) {
        try {
          return await runTransaction(fn);
        } catch (error) {
          if ((error as { code?: string }).code !== DEADLOCK || attempt >= 3) throw error;
        }
      }
    },
    async once(job, fn) {
      const key = JOB_KEYS[job];
      if (key === undefined) throw new Error(`unknown job ${job}`);
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const [{ locked }] = (await client.query('SELECT pg_try_advisory_lock($1) AS locked', [key])).rows;
        if (!locked) return undefined;
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key]).catch((e: Error) => (broken = e));
        }
      } catch (error) {
        if (isDatabaseUnavailable(error)) broken = error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
    pool,
  };
}
