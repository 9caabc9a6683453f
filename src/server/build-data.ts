// Data that pages read at build time. A running store's API is asked first (never a second handle on
// its PGlite directory); with no server running, the database is opened directly and closed after.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReviewsPage, Tool } from '../lib/entities';
import { config } from './config';

export type { ReviewsPage };

interface BuildData {
  tools: Tool[];
  firstReviews: ReviewsPage;
}

let loaded: Promise<BuildData> | undefined;

export function buildData(): Promise<BuildData> {
  loaded ??= load();
  return loaded;
}

/** The address of a store already serving this DATA_DIR, if any (written by src/server/main.ts). */
export function runningStoreUrl(dataDir: string): string | undefined {
  const file = path.join(dataDir, 'server.json');
  if (!existsSync(file)) return undefined;
  try {
    const { pid, url } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
    process.kill(pid, 0);
    return url;
  } catch {
    return undefined;
  }
}

async function load(): Promise<BuildData> {
  const cfg = config();
  const running = runningStoreUrl(cfg.dataDir);
  if (running) {
    const [tools, firstReviews] = await Promise.all([
      fetch(`${running}/api/tools`).then((r) => r.json() as Promise<Tool[]>),
      fetch(`${running}/api/reviews?limit=5&pageNumber=0`).then((r) => r.json() as Promise<ReviewsPage>),
    ]);
    return { tools, firstReviews };
  }
  const { getDb } = await import('./db');
  const { runtime } = await import('./runtime');
  const { toolsService } = await import('./tools/tools.service');
  const { firstReviewsPage } = await import('./reviews/reviews.routes');
  const db = await getDb();
  const data = { tools: await toolsService(db).list(), firstReviews: await firstReviewsPage(db) };
  await runtime.close();
  return data;
}
