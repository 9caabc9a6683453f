// `npm run dev`: Astro's dev server (hot reload; the API runs inside it) plus the Auth emulator.
// Like `npm start`, it needs no Firebase config; Ctrl-C stops both.
import '../src/server/load-env.ts';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEMO_ADMIN, DEMO_SHOPPER, loadConfig } from '../src/server/config.ts';
import { ensureAccount, isEmulatorUp, startEmulator, type Emulator } from './lib/emulator.ts';

const config = loadConfig();
const env: NodeJS.ProcessEnv = { ...process.env };
let emulator: Emulator | undefined;
const host = config.firebase.emulatorHost;
if (host) {
  env.FIREBASE_AUTH_EMULATOR_HOST = host;
  env.PUBLIC_FIREBASE_AUTH_EMULATOR_HOST = host;
  if (!(await isEmulatorUp(host))) {
    console.log(`Starting the Firebase Auth emulator on ${host}…`);
    emulator = await startEmulator({ host, projectId: config.firebase.projectId, dataDir: config.dataDir });
  }
  for (const account of [DEMO_ADMIN, DEMO_SHOPPER]) await ensureAccount(host, account);
  console.log(`Demo accounts: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}, ${DEMO_SHOPPER.email} / ${DEMO_SHOPPER.password}`);
}

const astro = spawn(process.execPath, [path.resolve('node_modules/astro/bin/astro.mjs'), 'dev', '--port', String(config.port), '--host', config.host], {
  env,
  stdio: 'inherit',
});
const stop = async (code = 0) => {
  astro.kill('SIGTERM');
  await emulator?.stop();
  process.exit(code);
};
astro.on('exit', (code) => void stop(code ?? 0));
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
