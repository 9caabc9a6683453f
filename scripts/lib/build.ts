// Builds the site when the build is missing or older than its sources (or was made for another store).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const INPUTS = ['src', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'];

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
  const keys = Object.keys(env).filter((k) => k.startsWith('PUBLIC_') || ['DATA_DIR', 'DATABASE_URL'].includes(k)).sort();
  return JSON.stringify(keys.map((k) => [k, env[k]]));
}

export function ensureBuild(env: NodeJS.ProcessEnv, log: (line: string) => void = console.log): void {
  const dist = path.resolve(env.DIST_DIR ?? 'dist');
  const stamp = path.join(dist, '.build-stamp');
  const key = buildKey(env);
  if (existsSync(stamp) && existsSync(path.join(dist, 'server', 'entry.mjs'))) {
    const fresh = statSync(stamp).mtimeMs >= Math.max(...INPUTS.map(newestMtime)) && readFileSync(stamp, 'utf8') === key;
    if (fresh) return;
  }
  log('Building the site (astro build)…');
  const started = Date.now();
  const run = (args: string[]) => {
    // A build takes one to two minutes here; one that hangs must fail rather than hold up its caller.
    const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...env, NODE_ENV: 'production' }, timeout: 15 * 60_000, killSignal: 'SIGKILL' });
    if (result.status !== 0) throw new Error(`build failed${result.error ? ` (${result.error.message})` : ''}: ${args.join(' ')}`);
  };
  run([path.resolve('node_modules/astro/bin/astro.mjs'), 'build', '--silent']);
  run([path.resolve('scripts/postbuild.ts'), path.join(dist, 'client')]);
  writeFileSync(stamp, key);
  log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
