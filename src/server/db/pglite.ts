// The embedded database (PGlite): one process's, in $DATA_DIR/pg, held by a lock file while open.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { tracer } from '../observability/tracing.ts';
import { preparedStatements, type Transaction } from './pglite-prepared.ts';
import {
  MIN_FREE_BYTES,
  STALE_PLAN_CODES,
  storageFailures,
  type Db,
  type OpenOptions,
  type Queryable,
} from './client.ts';

/** A span around one PGlite statement, shaped like the pg instrumentation's spans (tracing on only). */
function pgliteSpan<T>(sql: string, run: () => Promise<T>, name?: string): Promise<T> {
  if (!tracer) return run();
  return tracer.child(() => {
    // Our own SQL, never request data: its first word is the operation.
    const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
    return {
      name: name ?? `pg.query:${operation} pglite`,
      attributes: {
        'db.system.name': 'postgresql',
        'db.namespace': 'pglite',
        'db.operation.name': operation,
        'db.query.text': sql,
      },
    };
  }, run);
}

/**
 * PGlite starts with PostgreSQL's 128MB of shared_buffers, all of it resident in the WebAssembly memory from
 * the start (~130 MiB of the store's RSS). 32MB holds a shop's hot pages (the catalogue, stock, the newest
 * orders; orders flowed as fast as with 128MB, where 16MB cost ~10% of them); colder pages come from the OS's
 * file cache: random reads over 245 MB of rows cost ~10% more.
 */
export const DEFAULT_SHARED_BUFFERS = '32MB';

export async function openPglite(options: OpenOptions): Promise<Db> {
  const pglite = await import('@electric-sql/pglite');
  const { PGlite } = pglite;
  let dataDir: string | undefined;
  if (!options.memory && options.dataDir) {
    dataDir = path.join(options.dataDir, 'pg');
    mkdirSync(dataDir, { recursive: true });
  }
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  const pg = await PGlite.create({
    dataDir,
    loadDataDir: options.loadDataDir,
    // A start option, not postgresql.conf: PGlite's postgresqlconf would replace the file initdb wrote.
    startParams: [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${options.sharedBuffers ?? DEFAULT_SHARED_BUFFERS}`,
    ],
  }).catch((error) => {
    unlock();
    throw error;
  });
  const failures = storageFailures();
  const statements = preparedStatements(pg, pglite);
  const query = async <T>(sql: string, params: unknown[] = []) =>
    (await pgliteSpan(sql, () => statements.alone<T>(sql, params)).catch(failures.note)).rows;
  const queryable = (tx: Transaction): Queryable => ({
    query: async (sql, params = []) => (await pgliteSpan(sql, () => tx.query(sql, params))).rows as never,
    exec: (sql) => pgliteSpan(sql, () => tx.exec(sql)),
  });
  return {
    kind: 'pglite',
    query,
    exec: async (sql) => void (await pgliteSpan(sql, () => pg.exec(sql)).catch(failures.note)),
    async transaction(fn, options) {
      const once = () =>
        pgliteSpan('BEGIN', () => statements.transaction((tx) => fn(queryable(tx)), options), 'pg.transaction pglite');
      // A statement prepared before its table changed ended the transaction: run it all again, prepared afresh.
      return once()
        .catch((error: { code?: string }) => (STALE_PLAN_CODES.has(error.code!) ? once() : Promise.reject(error)))
        .catch(failures.note);
    },
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
    // Every writer takes PGlite's transaction lock (statements.transaction, statements.alone, pg.exec);
    // holding it (inside a transaction of our own, which writes nothing) the files are between two of theirs.
    snapshot: (read) =>
      statements.transaction(async (tx) => {
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
