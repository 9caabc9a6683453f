// The environment a store's server process starts with: `npm start` and the bench use this, and
// `npm run serve` sets the same in package.json (tests/unit/npm-scripts.test.ts keeps them equal).
import { spawnSync } from 'node:child_process';

/**
 * - MALLOC_TRIM_THRESHOLD_: glibc's malloc raises its trim and mmap thresholds each time a large block is
 *   freed (up to 32 MiB), so the buffers brotli and zlib free on Node's thread pool stay resident for good.
 *   Setting one of them fixes both at their defaults: ~30 MiB less resident at rest on a PostgreSQL store, and
 *   the same read rates (bench/before-after.md). Read by glibc when the process starts, so it cannot be set
 *   from inside it.
 * - NODE_COMPILE_CACHE: Node strips the server's TypeScript with a WebAssembly module it loads with the first
 *   .ts file and keeps for the life of the process (with it, a PostgreSQL store held ~12 MiB more at rest:
 *   its memory, and more of the node binary's pages).
 *   Its compile cache keeps each file's stripped and compiled code (checked against the file's content), so
 *   a start whose modules are all in it never loads the stripper, and is ready sooner. Relative to the
 *   working directory: the project's root for npm scripts.
 */
export const SERVER_PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_TRIM_THRESHOLD_: '131072',
  NODE_COMPILE_CACHE: 'node_modules/.cache/node-compile-cache',
};

/** `env` with the server process's settings; an operator's own value of one wins. */
export const serverProcessEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...SERVER_PROCESS_ENV, ...env });

/**
 * Puts the server's modules in the compile cache, so that its next start strips no TypeScript: `--help` loads
 * every module the server imports at start, prints its usage and exits, and Node writes the cache as it exits.
 * Modules loaded later (Stripe's with its keys, tracing's, the invoice PDF's) are cached the first time they load.
 */
export function warmCompileCache(env: NodeJS.ProcessEnv): void {
  spawnSync(process.execPath, ['src/server/main.ts', '--help'], {
    env: serverProcessEnv(env),
    stdio: 'ignore',
    timeout: 60_000,
  });
}
