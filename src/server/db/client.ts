// One small interface over PGlite (embedded, default) and node-postgres (DATABASE_URL).
// Plain SQL keeps the conditional updates that guard stock visible where they matter.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Transaction } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { tracer } from '../observability/tracing.ts';

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
  /**
   * Whether the database can take writes now (readiness): the embedded store's disk has room and no
   * write failed for want of it in the last moments; PostgreSQL is not read-only.
   */
  writable(): Promise<{ ok: true } | { ok: false; reason: string }>;
  /**
   * PGlite only: a copy of the data directory (a tarball), taken between transactions and after a
   * checkpoint, so it opens as it was at that moment with no half transaction. `read` runs in the same
   * moment: what it reads is what the copy holds.
   */
  snapshot?<T>(read: (tx: Queryable) => Promise<T>): Promise<{ tarball: Blob; read: T }>;
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

// The database is there but cannot keep what it is given: the disk is full, read-only or failing.
// What readiness says for each (the details go to the log, not to whoever asks).
const STORAGE_CODES: Record<string, string> = {
  '53100': 'the disk is full', // disk_full
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk is full',
  '25006': 'the database is read-only', // read_only_sql_transaction (default_transaction_read_only, a standby)
  EROFS: 'the disk is read-only',
  '53000': 'the database is out of resources', // insufficient_resources
  '58030': 'the disk is failing', // io_error
  EIO: 'the disk is failing',
};

/** Whether an error means the store cannot write now (a full or read-only disk): 503, and it recovers by itself. */
export function isStorageUnavailable(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code !== undefined && Object.hasOwn(STORAGE_CODES, code);
}

/** Room the embedded store wants on its disk before it says it is ready (a write extends files by pages). */
export const MIN_FREE_BYTES = 4 * 1024 * 1024;
/** After a write failed for want of storage, readiness says so for this long unless a check clears it. */
const STORAGE_FAILURE_MS = 5000;

/** Remembers the last write that failed for want of storage, for readiness. */
function storageFailures() {
  let at = -Infinity;
  let reason = '';
  return {
    /** Rethrows error, noting it when it is a storage failure. */
    note(error: unknown): never {
      if (isStorageUnavailable(error)) {
        at = performance.now();
        reason = STORAGE_CODES[(error as { code: string }).code];
      }
      throw error;
    },
    recent: () => (performance.now() - at < STORAGE_FAILURE_MS ? reason : undefined),
  };
}

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

/**
 * The PostgreSQL driver, loaded with `require` on first use: OpenTelemetry's pg instrumentation (tracing.ts,
 * started before the store opens) hooks `require`, not `import`.
 */
export const loadPg = (): typeof import('pg') => createRequire(import.meta.url)('pg') as typeof import('pg');

/** A span around one PGlite statement, shaped like the pg instrumentation's spans (tracing on only). */
function pgliteSpan<T>(sql: string, run: () => Promise<T>, name?: string): Promise<T> {
  if (!tracer) return run();
  // Our own SQL, never request data: its first word is the operation.
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
  return tracer.child(
    name ?? `pg.query:${operation} pglite`,
    { 'db.system.name': 'postgresql', 'db.namespace': 'pglite', 'db.operation.name': operation, 'db.query.text': sql },
    run,
  );
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
  const failures = storageFailures();
  const query = async <T>(sql: string, params: unknown[] = []) =>
    (await pgliteSpan(sql, () => pg.query<T>(sql, params)).catch(failures.note)).rows;
  const queryable = (tx: Transaction): Queryable => ({
    query: async (sql, params = []) => (await pgliteSpan(sql, () => tx.query(sql, params))).rows as never,
    exec: async (sql) => void (await pgliteSpan(sql, () => tx.exec(sql))),
  });
  return {
    kind: 'pglite',
    query,
    exec: async (sql) => void (await pgliteSpan(sql, () => pg.exec(sql)).catch(failures.note)),
    transaction: (fn) =>
      pgliteSpan('BEGIN', () => pg.transaction((tx) => fn(queryable(tx))), 'pg.transaction pglite').catch(
        failures.note,
      ),
    async writable() {
      const failed = failures.recent();
      if (failed) return { ok: false, reason: `Writes are failing: ${failed}` };
      if (!dataDir) return { ok: true };
      const disk = await statfs(dataDir);
      const free = disk.bavail * disk.bsize;
      if (free < MIN_FREE_BYTES) return { ok: false, reason: 'Writes are failing: the disk is full' };
      return { ok: true };
    },
    // One process owns a PGlite directory, so its jobs never overlap with another server's.
    once: (_job, fn) => fn(),
    close: async () => {
      await pg.close();
      unlock();
    },
    // Writers go through pg.transaction or pg.query, which take PGlite's transaction lock; holding
    // it (inside a transaction of our own, which writes nothing) the files are between two of theirs.
    snapshot: (read) =>
      pg.transaction(async (tx) => {
        const value = await read(queryable(tx));
        await tx.exec('CHECKPOINT');
        return { tarball: await pg.dumpDataDir('none'), read: value };
      }),
  };
}

/**
 * Two processes writing one PGlite directory silently lose writes: the first to open it holds it
 * (its pid in a lock file) until it closes; a lock left by a process that died is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const pid = lockHolder(dataDir);
  if (pid && pid !== process.pid) {
    throw new Error(
      `The embedded database in ${dataDir} is open in another process (pid ${pid}). Stop that store first, or use DATABASE_URL (PostgreSQL) to share one database.`,
    );
  }
  writeFileSync(path.join(dataDir, LOCK_FILE), String(process.pid));
  return () => rmSync(path.join(dataDir, LOCK_FILE), { force: true });
}

const LOCK_FILE = '.ironcrest-lock';

/** The live process that holds the embedded database in pgDir ($DATA_DIR/pg), if any. */
export function lockHolder(pgDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(pgDir, LOCK_FILE), 'utf8'));
    return pid && processAlive(pid) ? pid : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether a process with this pid runs (a lock file's owner). */
export function processAlive(pid: number): boolean {
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
  const pg = loadPg();
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
  const failures = storageFailures();
  // A failed query's connection is dropped by the pool (pg-pool releases it with the error), so a
  // session that began read-only is not reused once the database takes writes again.
  const query = async <T>(sql: string, params: unknown[] = []) =>
    (await pool.query(sql, params).catch(failures.note)).rows as T[];
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
      // A session that could not write (read-only when it began) is not reused either.
      if (isDatabaseUnavailable(error) || isStorageUnavailable(error)) broken = error as Error;
      else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
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
