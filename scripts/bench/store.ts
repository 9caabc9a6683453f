// The bench's own store: its ports, data and build dirs (never .data or dist), the server process,
// a scratch PostgreSQL schema and the Auth emulator, each stopped by cleanup() even on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ensureBuild } from '../lib/build.ts';
import { ensureAccount, startEmulator, type Emulator } from '../lib/emulator.ts';
import { assertPortFree } from '../lib/ports.ts';
import { serverProcessEnv } from '../lib/server-process.ts';

export const HOST = '127.0.0.1';
export const PORTS = {
  store: 4500,
  storePg: 4501,
  bare: 4510,
  nginx: 4520,
  scale: 4530,
  cluster: 4540,
  /** Astro's stock standalone server over the same site (standalone.ts). */
  standalone: 4600,
};
export const EMULATOR = '127.0.0.1:9700';
// BENCH_SERVER_ROOT runs another checkout's server (e.g. a worktree of the commit before a fix, built
// there with DATA_DIR=.data-bench DIST_DIR=dist-bench) with its own build and data: before/after numbers
// in the same conditions. The bench code itself is always this checkout's. The server runs on that
// checkout's own pinned Node (its node_modules/node) when it has one: a runtime upgrade's before/after.
const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ? path.resolve(process.env.BENCH_SERVER_ROOT) : undefined;
const pinnedNode = SERVER_ROOT && path.join(SERVER_ROOT, 'node_modules/node/bin/node');
const SERVER_NODE = pinnedNode && existsSync(pinnedNode) ? pinnedNode : process.execPath;
export const DATA_DIR = SERVER_ROOT ? path.join(SERVER_ROOT, '.data-bench') : '.data-bench';
export const DIST_DIR = SERVER_ROOT ? path.join(SERVER_ROOT, 'dist-bench') : 'dist-bench';
export const ADMIN_EMAIL = 'bench-admin@ironcrest.test';
export const TMP = path.resolve('bench/tmp');

// ---- cleanup: every process and schema the bench starts is stopped here, in reverse order.
const cleanups: (() => Promise<void>)[] = [];
export const onCleanup = (fn: () => Promise<void>) => cleanups.push(fn);
export async function cleanup(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!().catch((e: Error) => console.error(`cleanup: ${e.message}`));
}

/** The environment of the bench store (the build bakes the PUBLIC_ part, so keep it stable). */
export function benchEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    ...serverProcessEnv(process.env),
    NODE_ENV: undefined,
    DATABASE_URL: undefined,
    DATA_DIR,
    DIST_DIR,
    HOST,
    PORT: String(PORTS.store),
    FIREBASE_AUTH_EMULATOR_HOST: EMULATOR,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: EMULATOR,
    ADMIN_EMAILS: ADMIN_EMAIL,
    LOG_LEVEL: 'info',
    ...extra,
  };
}

let built = false;
/** Builds dist-bench for the .data-bench store when it is missing or stale (checked once per bench run). */
export function ensureBenchBuild(): void {
  if (built || SERVER_ROOT) return;
  ensureBuild(benchEnv(), (line) => console.log(`  ${line}`));
  built = true;
}

export interface Store {
  url: string;
  pid: number;
  /** Its log file (stdout and stderr). */
  log: string;
  /** From spawning the process to its 'ready' (database open, catalogue loaded, pages warmed). */
  readyMs: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

/** Starts `node src/server/main.ts` and resolves once it says ready (database open, catalogue loaded). */
export async function startStore(options: {
  name: string;
  port: number;
  env?: Record<string, string | undefined>;
}): Promise<Store> {
  await assertPortFree(HOST, options.port, `bench store ${options.name}`);
  mkdirSync(TMP, { recursive: true });
  // Request logs go to a file, as in production (nginx logs its requests too).
  const logFile = path.join(TMP, `${options.name}.log`);
  const log = openSync(logFile, 'w');
  const main = path.join(SERVER_ROOT ?? path.resolve('.'), 'src/server/main.ts');
  const spawned = performance.now();
  const child = spawn(SERVER_NODE, [main], {
    env: benchEnv({ PORT: String(options.port), ...options.env }),
    stdio: ['ignore', log, log, 'ipc'],
  });
  const store: Store = {
    url: `http://${HOST}:${options.port}`,
    pid: child.pid!,
    log: logFile,
    readyMs: 0,
    child,
    stop: () => stopChild(child),
  };
  onCleanup(store.stop);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`store ${options.name} not ready within 180 s (see bench/tmp/${options.name}.log)`)),
      180_000,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`store ${options.name} exited with ${code} (see bench/tmp/${options.name}.log)`));
    });
    child.on('message', (m) => {
      if (m !== 'ready') return;
      clearTimeout(timer);
      store.readyMs = Math.round(performance.now() - spawned);
      resolve();
    });
  });
  child.removeAllListeners('exit');
  return store;
}

// ---- PostgreSQL: a scratch schema in TEST_DATABASE_URL or the local server, dropped afterwards.
export interface PgScratch {
  url: string;
  schema: string;
  version: string;
  drop(): Promise<void>;
}

export const PG_BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function pgScratch(label: string): Promise<PgScratch | undefined> {
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  const schema = `bench_${label}_${randomBytes(4).toString('hex')}`;
  await client.query(`CREATE SCHEMA ${schema}`);
  const [{ server_version: version }] = (await client.query('SHOW server_version')).rows;
  const url = new URL(PG_BASE);
  url.searchParams.set('options', `-c search_path=${schema}`);
  let dropped = false;
  const scratch: PgScratch = {
    url: url.toString(),
    schema,
    version,
    async drop() {
      if (dropped) return;
      dropped = true;
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
  onCleanup(scratch.drop);
  return scratch;
}

/** The bench's Auth emulator (127.0.0.1:9700), with its own data under .data-bench-emulator. */
export async function startBenchEmulator(): Promise<Emulator> {
  const dataDir = '.data-bench-emulator';
  rmSync(dataDir, { recursive: true, force: true });
  const [host, port] = EMULATOR.split(':');
  for (const p of [0, 1, 2]) await assertPortFree(host, Number(port) + p, 'the bench Auth emulator');
  const emulator = await startEmulator({ host: EMULATOR, projectId: 'demo-ironcrest', dataDir, quiet: true });
  onCleanup(() => emulator.stop());
  await ensureAccount(EMULATOR, { email: ADMIN_EMAIL, password: 'bench-pass-123', name: 'Bench Admin' });
  return emulator;
}

/** Peak and current resident memory of a process, in MiB (Linux /proc). */
/**
 * Waits until the store has logged a line with this message (JSON log), at most maxMs; answers the ms waited,
 * or undefined when it did not come.
 */
export async function untilLogged(store: Store, msg: string, maxMs: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  const started = performance.now();
  const wanted = `"msg":${JSON.stringify(msg)}`;
  while (performance.now() - started < maxMs) {
    if ((await readFile(store.log, 'utf8')).includes(wanted)) return Math.round(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return undefined;
}

export async function memoryOf(pid: number): Promise<{ rssMiB: number; peakMiB: number } | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMiB: Math.round(kb('VmRSS') / 1024), peakMiB: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return undefined;
  }
}
