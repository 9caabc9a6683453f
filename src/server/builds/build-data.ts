// Data that pages read at build time. With PostgreSQL any number of readers is fine, so the build reads
// the database. PGlite is one process's: while a store serves that DATA_DIR (a publish on a running
// store), the build asks the store for the catalogue over HTTP instead; otherwise it opens the directory.
import path from 'node:path';
import type { Tool } from '../../lib/entities.ts';
import { memoise } from '../caching/cache.ts';
import { memoryBus } from '../caching/changes.ts';
import { config } from '../config.ts';
import { lockHolder } from '../db/pglite.ts';
import { openDb } from '../db/open.ts';
import { migrate } from '../db/migrate.ts';
import { seedIfEmpty } from '../db/seed.ts';
import { toolsService } from '../tools/tools.service.ts';

interface BuildData {
  tools: Tool[];
}

export const buildData = memoise(load);

async function load(): Promise<BuildData> {
  const cfg = config();
  if (!cfg.databaseUrl && lockHolder(path.join(cfg.dataDir, 'pg'))) return { tools: await fromRunningStore(cfg.port) };
  const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  try {
    // A first build on an empty store shows what the first start will serve.
    await migrate(db);
    if (cfg.seedDemo) await seedIfEmpty(db, { demoAccounts: cfg.emulator });
    return { tools: await toolsService(db, memoryBus()).list() };
  } finally {
    await db.close();
  }
}

async function fromRunningStore(port: number): Promise<Tool[]> {
  const url = `http://127.0.0.1:${port}/api/tools`;
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch((error: Error) => {
    throw new Error(`The store serving this DATA_DIR does not answer at ${url} (${error.message}); is PORT the same?`);
  });
  if (!response.ok) throw new Error(`The running store answered ${response.status} for ${url}.`);
  return (await response.json()) as Tool[];
}
