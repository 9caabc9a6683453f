// A running server follows the build DIST_DIR points at (src/server/builds/site-builds.ts): on SIGHUP at once,
// and otherwise by reading the link every second (one readlink; it works the same on every file system,
// where change notifications do not). A new build is loaded (its Astro handler imported from its own
// directory, so it is a new module, not the cached old one) and then handed over in one assignment.
import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroHandler } from '../host/outer-server.ts';
import { preferReactProduction } from './react-production.ts';
import { servedBuild } from './site-builds.ts';

export interface LoadedBuild {
  id: string;
  dir: string;
  astro: AstroHandler;
}

/** The build DIST_DIR points at, with its Astro handler loaded. */
export async function loadBuild(dist: string): Promise<LoadedBuild> {
  const served = servedBuild(dist);
  if (!served) throw new Error(`There is no build at ${dist}. Run npm run build first.`);
  const entry = pathToFileURL(path.join(served.dir, 'server', 'entry.mjs')).href;
  await preferReactProduction();
  const { handler } = (await import(entry)) as { handler: AstroHandler };
  return { ...served, astro: handler };
}

const POLL_MS = 1000;

/**
 * Calls `switchTo` with each new build DIST_DIR points at, one at a time. Returns `check` (for SIGHUP)
 * and `stop`.
 */
export function followBuilds(
  dist: string,
  current: string,
  switchTo: (build: LoadedBuild) => void,
  onError: (error: Error) => void,
  pollMs = POLL_MS,
) {
  let served = current;
  let running: Promise<void> | undefined;
  let again = false;

  async function check(): Promise<void> {
    const next = servedBuild(dist);
    if (!next || next.dir === served) return;
    const build = await loadBuild(dist);
    served = build.dir;
    switchTo(build);
  }
  /** Runs one check at a time; a request during one runs another after it. */
  function checkNow(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = check()
      .catch(onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void checkNow();
        }
      });
    return running;
  }

  let last: string | undefined;
  const timer = setInterval(() => {
    void readlink(dist).then(
      (target) => {
        if (target !== last) {
          last = target;
          void checkNow();
        }
      },
      () => {},
    );
  }, pollMs);
  timer.unref();
  return { check: checkNow, stop: () => clearInterval(timer) };
}
