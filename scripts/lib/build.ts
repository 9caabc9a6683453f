// Building the site without touching what is served: `astro build` and the post-build step write a new
// directory beside the served build (src/server/builds/site-builds.ts), and only a build that finished is
// switched in, in one rename; running servers then serve it (src/server/builds/site-reload.ts). A build that
// fails is removed and changes nothing. `npm run build`, `npm run publish` and `npm start` all build here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildsDirOf,
  lockBuilds,
  newBuildId,
  pointAt,
  pruneBuilds,
  readyBuilds,
  servedBuild,
} from '../../src/server/builds/site-builds.ts';
import { warmCompileCache } from './server-process.ts';

const INPUTS = ['src', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'];
const STAMP = '.build-stamp';

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** What the build depends on besides the sources: the store it prerenders from and the public config. */
function buildKey(env: NodeJS.ProcessEnv): string {
  const keys = Object.keys(env)
    .filter((k) => k.startsWith('PUBLIC_') || ['DATA_DIR', 'DATABASE_URL'].includes(k))
    .sort();
  return JSON.stringify(keys.map((k) => [k, env[k]]));
}

const distOf = (env: NodeJS.ProcessEnv) => path.resolve(env.DIST_DIR ?? 'dist');

/** Whether the served build is up to date with the sources and made for this store. */
export function buildIsFresh(env: NodeJS.ProcessEnv): boolean {
  const served = servedBuild(distOf(env));
  if (!served || served.id === path.basename(distOf(env))) return false; // none, or made in place
  const stamp = path.join(served.dir, STAMP);
  if (!existsSync(stamp) || !existsSync(path.join(served.dir, 'server', 'entry.mjs'))) return false;
  return (
    statSync(stamp).mtimeMs >= Math.max(...INPUTS.map(newestMtime)) && readFileSync(stamp, 'utf8') === buildKey(env)
  );
}

/** Builds the site when the served build is missing or older than its sources (or made for another store). */
export function ensureBuild(env: NodeJS.ProcessEnv, log: (line: string) => void = console.log): void {
  if (!buildIsFresh(env)) publishBuild(env, log);
  else warmCompileCache(env); // publishBuild does it too: the server's code may have changed since the build
}

export interface PublishedBuild {
  id: string;
  dir: string;
  /** Builds removed because no server needs them any more. */
  removed: string[];
}

/**
 * Builds the site into a new directory beside the served one and, once it is complete, points DIST_DIR at
 * it. Throws (leaving the served build as it was) when the build fails.
 */
export function publishBuild(env: NodeJS.ProcessEnv, log: (line: string) => void = console.log): PublishedBuild {
  const dist = distOf(env);
  const unlock = lockBuilds(dist);
  const id = newBuildId();
  const dir = path.join(buildsDirOf(dist), id);
  try {
    log(`Building the site (astro build) into ${path.relative(process.cwd(), dir)}…`);
    const started = Date.now();
    const run = (args: string[]) => {
      // A build takes one to two minutes here; one that hangs must fail rather than hold up its caller.
      const result = spawnSync(process.execPath, args, {
        stdio: 'inherit',
        env: { ...env, NODE_ENV: 'production', DIST_DIR: dir },
        timeout: 15 * 60_000,
        killSignal: 'SIGKILL',
      });
      if (result.status !== 0)
        throw new Error(`build failed${result.error ? ` (${result.error.message})` : ''}: ${args.join(' ')}`);
    };
    run([path.resolve('node_modules/astro/bin/astro.mjs'), 'build', '--silent']);
    run([path.resolve('scripts/postbuild.ts'), path.join(dir, 'client')]);
    writeFileSync(path.join(dir, STAMP), buildKey(env));
    pointAt(dist, dir);
    warmCompileCache(env);
    log(
      `Built ${id} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${path.relative(process.cwd(), dist)} now serves it.`,
    );
    const minutes = Number(env.ASSET_GRACE_MINUTES ?? 60);
    const graceMs = (Number.isFinite(minutes) && minutes >= 0 ? minutes : 60) * 60_000;
    return { id, dir, removed: pruneBuilds(dist, graceMs) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    unlock();
  }
}

/** Serves a build already on disk again (a kept one, to go back; or one copied here from another machine). */
export function switchToBuild(env: NodeJS.ProcessEnv, id: string): string {
  const dist = distOf(env);
  const build = readyBuilds(dist).find((b) => b.id === id);
  if (!build) throw new Error(`There is no complete build ${id} in ${buildsDirOf(dist)} (npm run publish -- --list).`);
  const unlock = lockBuilds(dist);
  try {
    pointAt(dist, build.dir);
    return id;
  } finally {
    unlock();
  }
}

export const listBuilds = (env: NodeJS.ProcessEnv) => readyBuilds(distOf(env));
