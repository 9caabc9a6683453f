// Opens the database the configuration names: PostgreSQL with DATABASE_URL, else the embedded PGlite.
import type { Db, OpenOptions } from './client.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

export async function openDb(options: OpenOptions): Promise<Db> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.schema, options.applicationName)
    : openPglite(options);
}
