// One small interface over PGlite (embedded, default) and node-postgres (DATABASE_URL).
// Plain SQL keeps the conditional updates that guard stock visible where they matter.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}
export interface Db extends Queryable {
  /** Runs fn in one transaction; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
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
}

export async function openDb(options: OpenOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.schema) : openPglite(options);
}

async function openPglite(options: OpenOptions): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  let dataDir: string | undefined;
  if (!options.memory && options.dataDir) {
    dataDir = path.join(options.dataDir, 'pg');
    mkdirSync(dataDir, { recursive: true });
  }
  const pg = await PGlite.create({ dataDir, loadDataDir: options.loadDataDir });
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
    close: () => pg.close(),
    // Tests dump a migrated template once and load it per file.
    dump: () => pg.dumpDataDir('none'),
  } as Db & { dump(): Promise<Blob | File> };
}

const DEADLOCK = '40P01';

async function openPostgres(url: string, schema?: string): Promise<Db> {
  const { default: pg } = await import('pg');
  // NUMERIC and BIGINT come back as strings by default; our values fit in a JS number.
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const query = async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
  const once = async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async (sql, params = []) => (await client.query(sql, params)).rows as never,
        exec: async (sql) => void (await client.query(sql)),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
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
          return await once(fn);
        } catch (error) {
          if ((error as { code?: string }).code !== DEADLOCK || attempt >= 3) throw error;
        }
      }
    },
    close: () => pool.end(),
  };
}
