// `npm start`: the whole store on one machine — build if needed, the Auth emulator (without a
// Firebase config), then the server (site + API + database). Ctrl-C stops everything it started.
import '../src/server/load-env.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DEMO_ADMIN, DEMO_SHOPPER, loadConfig } from '../src/server/config.ts';
import { ensureBuild } from './lib/build.ts';
import { ensureAccount, isEmulatorUp, startEmulator, withEmulatorEnv, type Emulator } from './lib/emulator.ts';
import { assertPortFree } from './lib/ports.ts';
import { serverProcessEnv } from './lib/server-process.ts';
import { exitWithUsageIfAsked } from './lib/usage.ts';

exitWithUsageIfAsked(`
'npm start': the whole store on http://localhost:4321 (PORT): builds the site if needed, starts the local
Firebase Auth emulator (when no Firebase project is configured) with the demo accounts, then the server
(site, API, embedded database, sandbox payments, demo data). Ctrl-C stops everything it started.
Configuration: environment variables or .env (README, Configuration).
`);

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

let emulator: Emulator | undefined;
let server: ChildProcess | undefined;
let stopping = false;

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  await emulator?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

async function main() {
  const config = (() => {
    try {
      return loadConfig(process.env, { server: true });
    } catch (error) {
      return fail((error as Error).message);
    }
  })();
  await assertPortFree(config.host, config.port, 'the store').catch((e: Error) => fail(e.message));

  const emulatorHost = config.firebase.emulatorHost;
  const env = withEmulatorEnv(process.env, emulatorHost);
  if (emulatorHost) {
    if (!(await isEmulatorUp(emulatorHost))) {
      const [host, port] = emulatorHost.split(':');
      await assertPortFree(host, Number(port), 'the Firebase Auth emulator').catch((e: Error) => fail(e.message));
      console.log(`Starting the Firebase Auth emulator on ${emulatorHost}…`);
      emulator = await startEmulator({
        host: emulatorHost,
        projectId: config.firebase.projectId,
        dataDir: config.dataDir,
        quiet: !!process.env.CI,
      });
    }
    for (const account of [DEMO_ADMIN, DEMO_SHOPPER]) await ensureAccount(emulatorHost, account);
  }

  ensureBuild(env);

  server = spawn(process.execPath, [path.resolve('src/server/main.ts')], {
    env: serverProcessEnv(env),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  server.on('exit', (code) => {
    if (!stopping) void stop(code ?? 1);
  });
  server.on('message', (message) => {
    if (message !== 'ready') return;
    const url = `http://${config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
    console.log(`\n  ${'Ironcrest Tools'} is running at ${url}\n`);
    if (emulatorHost) {
      console.log('  Demo accounts (local Auth emulator):');
      console.log(`    admin    ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
      console.log(`    shopper  ${DEMO_SHOPPER.email} / ${DEMO_SHOPPER.password}`);
    }
    console.log(`  Payments: ${config.stripe ? 'Stripe' : 'sandbox (card 4242 4242 4242 4242 succeeds)'}`);
    console.log('  Press Ctrl-C to stop.\n');
  });
}

main().catch(async (error: Error) => {
  console.error(error.message);
  await stop(1);
});
