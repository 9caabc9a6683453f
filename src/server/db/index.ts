// The process's one database handle: opened, migrated and (when empty) seeded on first use.
import { config } from '../config';
import { logger } from '../logger';
import { runtime } from '../runtime';
import { openDb, type Db } from './client';
import { migrate } from './migrate';
import { seedIfEmpty } from './seed';

let pending: Promise<Db> | undefined;

export function getDb(): Promise<Db> {
  pending ??= start().catch((error) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function start(): Promise<Db> {
  const cfg = config();
  const started = Date.now();
  const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  const applied = await migrate(db);
  if (cfg.seedDemo) await seedIfEmpty(db);
  runtime.onClose(async () => {
    pending = undefined;
    await db.close();
  });
  logger.info({ kind: db.kind, migrations: applied, ms: Date.now() - started }, 'database ready');
  return db;
}
