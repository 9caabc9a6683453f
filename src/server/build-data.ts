// Data that pages read at build time, straight from the database: with PostgreSQL any number of
// readers is fine; with PGlite the build must run while no store holds the directory (npm start builds
// before it starts the server; openDb refuses a directory another process holds, naming it).
import type { Tool } from '../lib/entities.ts';
import { memoise } from './cache.ts';
import { memoryBus } from './changes.ts';
import { config } from './config.ts';
import { openDb } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { seedIfEmpty } from './db/seed.ts';
import { toolsService } from './tools/tools.service.ts';

interface BuildData {
  tools: Tool[];
}

export const buildData = memoise(load);

async function load(): Promise<BuildData> {
  const cfg = config();
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
