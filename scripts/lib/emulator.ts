// The local Firebase Auth emulator (firebase-tools, pure Node): start, wait until ready, seed the demo accounts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Emulator {
  host: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The store's environment beside the emulator: the server and the build are told where it is. */
export function withEmulatorEnv(env: NodeJS.ProcessEnv, emulatorHost: string | undefined): NodeJS.ProcessEnv {
  return emulatorHost
    ? { ...env, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }
    : { ...env };
}

export async function isEmulatorUp(host: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    const body = (await response.json()) as { authEmulator?: { ready?: boolean } };
    return body.authEmulator?.ready === true;
  } catch {
    return false;
  }
}

/** How many accounts the emulator's saved export holds (what it imports when it starts). */
function savedAccounts(exportDir: string): number {
  try {
    const users = (
      JSON.parse(readFileSync(path.join(exportDir, 'auth_export', 'accounts.json'), 'utf8')) as { users?: unknown[] }
    ).users;
    return Array.isArray(users) ? users.length : 0;
  } catch {
    return 0;
  }
}

/** How many accounts the running emulator holds (its owner API, as its own export reads them). */
async function accountCount(host: string, projectId: string): Promise<number> {
  try {
    const response = await fetch(
      `http://${host}/identitytoolkit.googleapis.com/v1/projects/${encodeURIComponent(projectId)}/accounts:batchGet?maxResults=-1`,
      { headers: { authorization: 'Bearer owner' }, signal: AbortSignal.timeout(10_000) },
    );
    return ((await response.json()) as { users?: unknown[] }).users?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Starts the emulator on host (127.0.0.1:port), keeping its accounts in dataDir/auth across restarts. */
export async function startEmulator(options: {
  host: string;
  projectId: string;
  dataDir: string;
  quiet?: boolean;
}): Promise<Emulator> {
  const port = Number(options.host.split(':')[1]);
  const dir = path.resolve(options.dataDir, 'auth-emulator');
  const exportDir = path.join(dir, 'export');
  mkdirSync(dir, { recursive: true });
  // Its own config per store, so several stores (dev, tests) can run side by side.
  writeFileSync(
    path.join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: port + 1 },
        logging: { host: '127.0.0.1', port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const args = [
    'emulators:start',
    '--only',
    'auth',
    '--project',
    options.projectId,
    '--config',
    path.join(dir, 'firebase.json'),
  ];
  const importing = existsSync(path.join(exportDir, 'firebase-export-metadata.json'));
  if (importing) args.push('--import', exportDir);
  args.push('--export-on-exit', exportDir);
  const bin = path.resolve('node_modules/firebase-tools/lib/bin/firebase.js');
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { ...process.env, CI: 'true', NO_UPDATE_NOTIFIER: '1', FIREBASE_AUTH_EMULATOR_HOST: undefined },
    stdio: options.quiet ? 'ignore' : ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const deadline = Date.now() + 90_000;
  while (!(await isEmulatorUp(options.host))) {
    if (exited) throw new Error('The Firebase Auth emulator exited while starting (is its port in use?)');
    if (Date.now() > deadline) throw new Error('The Firebase Auth emulator did not start within 90 s');
    await new Promise((r) => setTimeout(r, 300));
  }
  // It says ready before it has imported its saved accounts (firebase-tools imports them after its server
  // listens, in one request): until then a saved account's sign-in fails with EMAIL_NOT_FOUND.
  const saved = importing ? savedAccounts(exportDir) : 0;
  while (saved && (await accountCount(options.host, options.projectId)) < saved) {
    if (exited) throw new Error('The Firebase Auth emulator exited while importing its accounts');
    if (Date.now() > deadline) throw new Error('The Firebase Auth emulator did not import its accounts within 90 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    host: options.host,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/**
 * Creates an email/password account in the emulator unless it exists, with its email verified: the
 * store grants a role above user only to a verified email, so the demo admin must be one.
 */
export async function ensureAccount(host: string, account: { email: string; password: string; name: string }) {
  const url = `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: account.email,
      password: account.password,
      displayName: account.name,
      returnSecureToken: false,
    }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    if (!body.error?.message?.startsWith('EMAIL_EXISTS'))
      throw new Error(`could not create ${account.email}: ${body.error?.message}`);
  }
  // The emulator's admin API (as the project owner) stands in for following the verification mail.
  const admin = async (method: string, body: object) => {
    const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`could not verify ${account.email}: accounts:${method} answered ${res.status}`);
    return res.json() as Promise<{ users?: { localId: string; emailVerified?: boolean }[] }>;
  };
  const [user] = (await admin('lookup', { email: [account.email] })).users ?? [];
  if (!user) throw new Error(`could not verify ${account.email}: no such account`);
  if (!user.emailVerified) await admin('update', { localId: user.localId, emailVerified: true });
}
