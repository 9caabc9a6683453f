// One small interface over PGlite (embedded, default) and node-postgres (DATABASE_URL).
// Plain SQL keeps the conditional updates that guard stock visible where they matter.
import type { Pool } from 'pg';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * In a transaction on PostgreSQL: the statements sent in this turn (before the next await) are its last,
   * and COMMIT goes out with them, one round trip fewer. From then on the statements decide: the
   * transaction commits unless one of them fails, even if fn throws afterwards. Absent elsewhere.
   */
  last?(): void;
}
export interface TransactionOptions {
  /**
   * Its statements run on their generic plans, made once per connection, never on a plan made for the
   * values of this run. PostgreSQL's default (plan_cache_mode auto) keeps planning a statement again on
   * every run when its generic plan looks dearer than one made for the values, as it does for an array
   * parameter (`= ANY($1)`, `unnest($1)`), which it prices at 10 elements: placing a one-line order
   * planned its two statements again every time, 0.2-0.7 ms an order on PGlite (bench/before-after.md,
   * 2026-12-06). For statements whose best plan does not depend on the values (the order path); not for
   * searches and optional filters (`$1 IS NULL OR …`), which need the plan made for their values.
   */
  genericPlans?: boolean;
}

/** Sent at the start of a `genericPlans` transaction; SET LOCAL ends with it. */
export const GENERIC_PLANS = 'SET LOCAL plan_cache_mode = force_generic_plan';

export interface Db extends Queryable {
  /**
   * Runs fn in one transaction; rolls back if it throws. Its statements run in the order they are sent;
   * statements sent together (Promise.all of calls made before any await) are one round trip on
   * PostgreSQL. If one fails, those after it in the same transaction fail too.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
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

/**
 * Both stores run our statements prepared under names. These errors say the database no longer has a
 * statement, or cannot use its plan because a table changed under it (a migration): prepare it again.
 */
export const STALE_PLAN_CODES = new Set(['26000', '0A000']);

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
export function storageFailures() {
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
  /** PGlite only: its buffer cache (shared_buffers, '32MB' when not given). */
  sharedBuffers?: string;
  /** PGlite only: keep everything in memory. */
  memory?: boolean;
  /** PostgreSQL only: how this pool's connections are named in pg_stat_activity. */
  applicationName?: string;
}
