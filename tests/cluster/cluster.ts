// Starts and stops the cluster the cluster test runs against: one scratch PostgreSQL database, the
// Auth emulator, three store servers (`node src/server/main.ts`) and nginx with deploy/nginx.conf
// rendered for them, over TLS with a certificate made here.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { renderNginx } from '../../deploy/render-nginx.ts';
import { ensureBuild } from '../../scripts/lib/build.ts';
import { startEmulator, type Emulator } from '../../scripts/lib/emulator.ts';

export const PROXY_PORT = 4440;
export const HTTP_PORT = 4450;
export const SERVER_PORTS = [4441, 4442, 4443];
export const METRICS_PORTS = [4451, 4452, 4453];
export const ORIGIN = `https://localhost:${PROXY_PORT}`;
export const EMULATOR_HOST = '127.0.0.1:9640';
export const PROJECT_ID = 'demo-ironcrest';
export const ADMIN_EMAIL = 'admin@cluster.test';
export const METRICS_TOKEN = 'cluster-metrics-token-0123456789';
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const dbUrl = (name: string) => `postgres://postgres@127.0.0.1:5432/${name}`;
const DIST_DIR = 'dist-cluster';

/** Why the cluster test cannot run here, or null when it can. */
export async function skipReason(): Promise<string | null> {
  const pgUp = await new Promise<boolean>((resolve) => {
    const socket = connect(5432, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
  if (!pgUp) return 'no PostgreSQL answers on 127.0.0.1:5432';
  if (spawnSync('nginx', ['-v']).error) return 'nginx is not installed (apt-get install nginx)';
  if (spawnSync('openssl', ['version']).error) return 'openssl is not installed';
  return null;
}

export async function sql<T = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface Server {
  port: number;
  process: ChildProcess;
  exited: Promise<number | null>;
}

export interface Cluster {
  dir: string;
  dbName: string;
  dbUrl: string;
  ca: Buffer;
  servers: Server[];
  nginx: ChildProcess;
  emulator: Emulator;
  jwtSecret: string;
  /** The servers' environment (a publish on this machine builds with it). */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** The build the servers serve: made once, reused while the sources do not change (scripts/lib/build.ts). */
function buildOnce(): void {
  // Seed ids derive from the content, so a build prerendered from this database matches every fresh
  // scratch one; the URL is fixed so the build stamp stays valid between runs.
  const buildDb = 'cluster_build';
  const env = {
    ...process.env,
    DIST_DIR,
    DATA_DIR: path.resolve('.data-cluster-build'),
    DATABASE_URL: dbUrl(buildDb),
    PUBLIC_SITE_URL: ORIGIN,
    PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
    FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
    LOG_LEVEL: 'warn',
  };
  const psql = (command: string) => spawnSync('psql', [PG_ADMIN_URL, '-qc', command], { stdio: 'ignore' });
  let made = false;
  ensureBuild(env, (line) => {
    if (!made) {
      psql(`DROP DATABASE IF EXISTS ${buildDb} WITH (FORCE)`);
      psql(`CREATE DATABASE ${buildDb}`);
      made = true;
    }
    console.log(line);
  });
  if (made) psql(`DROP DATABASE IF EXISTS ${buildDb} WITH (FORCE)`);
}

export function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const run = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr}`);
  return { cert, key };
}

/** Where nginx listens and which servers it proxies to (the bench's cluster part uses its own ports). */
export interface ProxyLayout {
  site: string;
  proxyPort: number;
  /** address:port of the plain-HTTP redirect. */
  listenHttp: string;
  serverPorts: number[];
}
const TEST_LAYOUT: ProxyLayout = {
  site: ORIGIN,
  proxyPort: PROXY_PORT,
  listenHttp: `127.0.0.1:${HTTP_PORT}`,
  serverPorts: SERVER_PORTS,
};

/** A minimal nginx.conf around the shipped site file, with every path inside the test's directory. */
export async function startNginx(dir: string, cert: string, key: string, layout = TEST_LAYOUT): Promise<ChildProcess> {
  const root = path.join(dir, 'nginx');
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(root, sub), { recursive: true });
  // Workers run as nobody when the test runs as root: they buffer uploads in these directories.
  for (const sub of ['', 'body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) chmodSync(path.join(root, sub), 0o777);
  chmodSync(dir, 0o755);
  writeFileSync(
    path.join(root, 'site.conf'),
    renderNginx({
      site: layout.site,
      cert,
      key,
      servers: layout.serverPorts.map((p) => `127.0.0.1:${p}`),
      listenHttps: `127.0.0.1:${layout.proxyPort}`,
      listenHttp: layout.listenHttp,
    }),
  );
  const main = `
daemon off;
worker_processes 1;
pid ${root}/nginx.pid;
error_log ${root}/error.log warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${root}/body;
  proxy_temp_path ${root}/proxy;
  fastcgi_temp_path ${root}/fastcgi;
  uwsgi_temp_path ${root}/uwsgi;
  scgi_temp_path ${root}/scgi;
  include ${root}/site.conf;
}
`;
  writeFileSync(path.join(root, 'nginx.conf'), main);
  const check = spawnSync(
    'nginx',
    ['-t', '-p', root, '-e', path.join(root, 'error.log'), '-c', path.join(root, 'nginx.conf')],
    { encoding: 'utf8' },
  );
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const child = spawn('nginx', ['-p', root, '-e', path.join(root, 'error.log'), '-c', path.join(root, 'nginx.conf')], {
    stdio: 'inherit',
  });
  const deadline = Date.now() + 10_000;
  while (!(await portOpen(layout.proxyPort))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`nginx did not start: ${readFileSync(path.join(root, 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export function startServer(index: number, env: NodeJS.ProcessEnv): Promise<Server> {
  const port = SERVER_PORTS[index];
  const child = spawn(process.execPath, [path.resolve('src/server/main.ts')], {
    env: {
      ...env,
      PORT: String(port),
      METRICS_PORT: String(METRICS_PORTS[index]),
      DATA_DIR: path.join(env.CLUSTER_DIR!, `server-${index + 1}`),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // not left running (and holding the test's output) after the test gives up on it
      reject(new Error(`server on ${port} did not start within 60 s`));
    }, 60_000);
    child.once('message', () => {
      clearTimeout(timer);
      resolve({ port, process: child, exited });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server on ${port} exited with ${code} while starting`));
    });
  });
}

export async function startCluster(): Promise<Cluster> {
  buildOnce();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-cluster-'));
  const dbName = `cluster_${randomBytes(6).toString('hex')}`;
  await sql(PG_ADMIN_URL, `CREATE DATABASE ${dbName}`);
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const fn of stops.splice(0).reverse()) await fn().catch((error) => console.error(error));
  };
  stops.push(async () => rmSync(dir, { recursive: true, force: true }));
  stops.push(() => sql(PG_ADMIN_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  try {
    const emulator = await startEmulator({
      host: EMULATOR_HOST,
      projectId: PROJECT_ID,
      dataDir: path.join(dir, 'emulator'),
      quiet: true,
    });
    stops.push(() => emulator.stop());
    const { cert, key } = makeCertificate(dir);
    const jwtSecret = randomBytes(32).toString('hex');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      CLUSTER_DIR: dir,
      DIST_DIR,
      DATABASE_URL: dbUrl(dbName),
      TRUST_PROXY: '1',
      PUBLIC_SITE_URL: ORIGIN,
      PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
      FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
      PUBLIC_FIREBASE_PROJECT_ID: PROJECT_ID,
      JWT_SECRET: jwtSecret,
      ADMIN_EMAILS: ADMIN_EMAIL,
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
      // The webhook receiver of the cluster test listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: '1',
    };
    // All three at once on the empty database: migrations and the demo seed must cope. Those that did
    // start are stopped even when another failed.
    const starts = await Promise.allSettled(SERVER_PORTS.map((_, i) => startServer(i, env)));
    const servers = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    stops.push(() => Promise.all(servers.map((s) => stopServer(s))));
    const failed = starts.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const nginx = await startNginx(dir, cert, key);
    stops.push(async () => {
      if (nginx.exitCode !== null) return;
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGQUIT');
      // A graceful stop waits for open connections; a test that left one open must not hang here.
      const timer = setTimeout(() => nginx.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    });
    return {
      dir,
      dbName,
      dbUrl: dbUrl(dbName),
      ca: readFileSync(cert),
      servers,
      nginx,
      emulator,
      jwtSecret,
      env,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function stopServer(server: Server): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  server.process.kill('SIGTERM');
  const timer = setTimeout(() => server.process.kill('SIGKILL'), 15_000);
  await server.exited;
  clearTimeout(timer);
}

// ── HTTP ─────────────────────────────────────────────────────────────────────────────────────────

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json<T = any>(): T;
}

export interface RequestOptions {
  method?: string;
  /** 'proxy' (nginx over HTTPS) or a server's port (plain HTTP, as nginx reaches it). */
  to?: 'proxy' | number;
  token?: string;
  json?: unknown;
  body?: Buffer;
  headers?: Record<string, string>;
  agent?: http.Agent;
}

const agents = new Map<string, https.Agent>();
/** A keep-alive agent trusting the test certificate, connecting from localAddress (127.0.0.x: another client). */
export function proxyAgent(ca: Buffer, localAddress = '127.0.0.1'): https.Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new https.Agent({ ca, keepAlive: true, maxSockets: 64, localAddress, servername: 'localhost' });
    agents.set(localAddress, agent);
  }
  return agent;
}
const plainAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
  plainAgent.destroy();
}

export function request(ca: Buffer, path: string, options: RequestOptions = {}): Promise<Answer> {
  const to = options.to ?? 'proxy';
  const body = options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : options.body;
  const headers: Record<string, string> = {
    host: `localhost:${PROXY_PORT}`,
    origin: ORIGIN,
    ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(body ? { 'content-length': String(body.length) } : {}),
    // Straight to a server, the test stands in for nginx: the forwarded headers nginx would add.
    ...(to === 'proxy'
      ? {}
      : {
          'x-forwarded-proto': 'https',
          'x-forwarded-host': `localhost:${PROXY_PORT}`,
          'x-forwarded-for': '127.0.0.1',
        }),
    ...options.headers,
  };
  const call = to === 'proxy' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = call(
      {
        host: '127.0.0.1',
        port: to === 'proxy' ? PROXY_PORT : to,
        method: options.method ?? (body ? 'POST' : 'GET'),
        path,
        headers,
        agent: options.agent ?? (to === 'proxy' ? proxyAgent(ca) : plainAgent),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: bytes,
            json: () => JSON.parse(bytes.toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${options.method ?? 'GET'} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

// ── Identities ───────────────────────────────────────────────────────────────────────────────────

async function emulatorCall(path: string, body: object, owner = false) {
  const response = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { idToken?: string; localId?: string; error?: { message: string } };
  if (!response.ok) throw new Error(`emulator ${path}: ${json.error?.message}`);
  return json;
}

/** A real emulator account with a verified email, signed in: its ID token. */
export async function realIdToken(email: string): Promise<string> {
  const password = 'cluster-pass-123';
  const made = await emulatorCall('accounts:signUp?key=demo-api-key', {
    email,
    password,
    displayName: email.split('@')[0],
    returnSecureToken: true,
  });
  await emulatorCall(`projects/${PROJECT_ID}/accounts:update`, { localId: made.localId, emailVerified: true }, true);
  const signedIn = await emulatorCall('accounts:signInWithPassword?key=demo-api-key', {
    email,
    password,
    returnSecureToken: true,
  });
  return signedIn.idToken!;
}

const uidOf = (email: string) => `uid-${Buffer.from(email).toString('hex').slice(0, 40)}`;

/** Verified emulator accounts for emails, made in one call (batchCreate, as the Admin SDK's importUsers). */
export async function createAccounts(emails: string[]): Promise<void> {
  const users = emails.map((email) => ({
    localId: uidOf(email),
    email,
    emailVerified: true,
    displayName: email.split('@')[0],
  }));
  const result = (await emulatorCall(`projects/${PROJECT_ID}/accounts:batchCreate`, { users }, true)) as {
    error?: unknown[];
  };
  if (result.error?.length) throw new Error(`emulator batchCreate: ${JSON.stringify(result.error.slice(0, 3))}`);
}

/**
 * An ID token in the emulator's format for an account made by createAccounts: firebase-admin in
 * emulator mode accepts unsigned tokens (the reason the server refuses the emulator off loopback) as
 * long as the account exists, which gives the test 200 buyers without 200 password sign-ins. The test
 * checks one is accepted first.
 */
export function unsignedIdToken(email: string): string {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const uid = uidOf(email);
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({
    iss: `https://securetoken.google.com/${PROJECT_ID}`,
    aud: PROJECT_ID,
    auth_time: now,
    user_id: uid,
    sub: uid,
    iat: now,
    exp: now + 3600,
    email,
    email_verified: true,
    name: email.split('@')[0],
    firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
  })}.`;
}

/** Our access token for email, through the token exchange (PUT /api/user/{email}) behind the proxy. */
export async function exchange(ca: Buffer, email: string, idToken: string, localAddress?: string): Promise<Answer> {
  return request(ca, `/api/user/${encodeURIComponent(email)}`, {
    method: 'PUT',
    token: idToken,
    json: { email },
    agent: localAddress ? proxyAgent(ca, localAddress) : undefined,
  });
}

/** Polls check until it returns true or ms pass; returns the time it took, or Infinity. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started <= ms) {
    if (await check().catch(() => false)) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Infinity;
}
