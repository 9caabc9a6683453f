// The environment a store's server process starts with: `npm start` and the bench use this, and
// `npm run serve` sets the same in package.json (tests/unit/npm-scripts.test.ts keeps them equal).

/**
 * glibc's malloc raises its trim and mmap thresholds each time a large block is freed (up to 32 MiB), so
 * the buffers brotli and zlib free on Node's thread pool stay resident for good. Setting one of them fixes
 * both at their defaults: ~30 MiB less resident at rest on a PostgreSQL store, and the same read rates
 * (bench/before-after.md). Read by glibc when the process starts, so it cannot be set from inside it.
 */
export const SERVER_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_TRIM_THRESHOLD_: '131072' };

/** `env` with the server process's settings; an operator's own value of one wins. */
export const serverProcessEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...SERVER_PROCESS_ENV, ...env });
