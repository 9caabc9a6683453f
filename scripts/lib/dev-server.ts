// Astro's dev server (hot reload; the API runs inside it) plus the Auth emulator, for `npm run dev` and
// `npm run edit`. Like `npm start`, it needs no Firebase config; Ctrl-C stops both.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DEMO_ADMIN, DEMO_SHOPPER, type Config } from '../../src/server/config.ts';
import { ensureAccount, isEmulatorUp, startEmulator, withEmulatorEnv, type Emulator } from './emulator.ts';

/** Starts the emulator if none answers, then `astro dev` on host:port; exits when Astro does. */
export async function runDevServer(
  config: Config,
  host: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  let emulator: Emulator | undefined;
  const emulatorHost = config.firebase.emulatorHost;
  const env = withEmulatorEnv({ ...process.env, ...extraEnv }, emulatorHost);
  if (emulatorHost) {
    if (!(await isEmulatorUp(emulatorHost))) {
      console.log(`Starting the Firebase Auth emulator on ${emulatorHost}…`);
      emulator = await startEmulator({
        host: emulatorHost,
        projectId: config.firebase.projectId,
        dataDir: config.dataDir,
      });
    }
    for (const account of [DEMO_ADMIN, DEMO_SHOPPER]) await ensureAccount(emulatorHost, account);
    console.log(
      `Demo accounts: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}, ${DEMO_SHOPPER.email} / ${DEMO_SHOPPER.password}`,
    );
  }

  const astro = spawn(
    process.execPath,
    [path.resolve('node_modules/astro/bin/astro.mjs'), 'dev', '--port', String(config.port), '--host', host],
    {
      env,
      stdio: 'inherit',
    },
  );
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    // The port is Astro's: exit only once Astro has let it go, so an editor started right after this one
    // finds it free (it refuses a taken port, and the browser tests start one after another).
    if (astro.exitCode === null && astro.signalCode === null) {
      const exited = new Promise((resolve) => astro.once('exit', resolve));
      astro.kill('SIGTERM');
      const gone = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
      if (!gone) {
        astro.kill('SIGKILL');
        await exited;
      }
    }
    await emulator?.stop();
    process.exit(code);
  };
  astro.on('exit', (code) => void stop(code ?? 0));
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  return astro;
}
