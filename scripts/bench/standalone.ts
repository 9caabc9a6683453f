// The peer a user would pick instead of our server: the same site built with @astrojs/node in
// `standalone` mode (ASTRO_NODE_STANDALONE=1, see astro.config.mjs) into its own dist, served by
// Astro's own Node server (`node dist-bench-standalone/server/entry.mjs`).
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild } from '../lib/build.ts';
import { assertPortFree } from '../lib/ports.ts';
import { benchEnv, HOST, onCleanup, PORTS, stopChild, TMP } from './store.ts';

const DIST = 'dist-bench-standalone';
/**
 * The peer runs as Astro says to run it in production (NODE_ENV=production). Our runtime refuses the auth
 * emulator there (it accepts unsigned tokens), and the home and catalogue pages open a runtime: so the peer
 * names a Firebase project of its own, which nobody signs in to (it is only read anonymously).
 */
const env = (port: number) =>
  benchEnv({
    DIST_DIR: DIST,
    ASTRO_NODE_STANDALONE: '1',
    HOST,
    PORT: String(port),
    NODE_ENV: 'production',
    FIREBASE_AUTH_EMULATOR_HOST: undefined,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: undefined,
    PUBLIC_FIREBASE_API_KEY: 'bench-peer-key',
    PUBLIC_FIREBASE_AUTH_DOMAIN: 'bench-peer.example.com',
    PUBLIC_FIREBASE_PROJECT_ID: 'bench-peer',
  });

export function ensureStandaloneBuild(): void {
  // The build reads the same .data-bench store as ours, so its pages carry the same data.
  ensureBuild(env(PORTS.standalone), (line) => console.log(`  standalone: ${line}`));
}

export async function startStandalone(port: number): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  await assertPortFree(HOST, port, 'the Astro standalone server');
  mkdirSync(TMP, { recursive: true });
  const log = openSync(path.join(TMP, 'standalone.log'), 'w');
  // Its own data directory: the pages it renders from live data open a runtime in its process
  // (src/middleware.ts), and a PGlite directory is one process's.
  const child = spawn(process.execPath, [path.resolve(DIST, 'server/entry.mjs')], {
    env: { ...env(port), DATA_DIR: '.data-bench-standalone' },
    stdio: ['ignore', log, log],
  });
  const stop = () => stopChild(child);
  onCleanup(stop);
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the standalone server exited (see bench/tmp/standalone.log)`);
    if (
      await fetch(`${url}/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error('the standalone server did not answer within 90 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid!, stop };
}
