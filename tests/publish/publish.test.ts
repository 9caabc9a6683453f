// Publishing without downtime (issue 28), on one server with the embedded store: `npm run publish` builds
// beside the served build while readers load pages and their assets, then the server switches over with
// no failed request, no restart and no half-old page; a build that fails changes nothing that is served.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../../scripts/lib/build';
import { signAccessToken } from '../../src/server/auth/jwt';
import { DEMO_ADMIN } from '../../src/server/config';
import { openDb } from '../../src/server/db/open';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/db/seed';
import { readersOf } from './site-load';

const PORT = 4471;
const DIST_DIR = path.resolve('dist-publish-test');
const DATA_DIR = path.resolve('.data-publish-test');
const BROKEN_POST = path.resolve('src/content/blogs/zz-publish-test-broken.md');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'test',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DIST_DIR,
  DATA_DIR,
  // No sign-in happens here; the emulator is only named, as the build bakes it in.
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9471',
  PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9471',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'publish-test-secret-0123456789abcdef',
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
function get(pathname: string, method = 'GET', token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const req = http.request(
      { host: '127.0.0.1', port: PORT, path: pathname, method, headers, agent, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}
const servedBuild = async () => (JSON.parse((await get('/api/health')).body) as { build: string }).build;

/** `npm run publish` as an editor runs it, in its own process: its exit code and what it printed. */
function publish(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/publish.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

let server: ChildProcess;
beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true });
  rmSync(BROKEN_POST, { force: true });
  ensureBuild(env, () => {});
  // The demo admin as if it had signed in with its verified email (no Auth emulator runs here).
  const db = await openDb({ dataDir: DATA_DIR });
  await migrate(db);
  await seedIfEmpty(db, { demoAccounts: true });
  await db.query('UPDATE users SET email_verified = true WHERE email = $1', [DEMO_ADMIN.email]);
  await db.close();
  server = spawn(process.execPath, ['src/server/main.ts'], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    server.once('message', () => resolve());
    server.once('exit', (code) => reject(new Error(`the store exited with ${code} while starting`)));
  });
}, 600_000);
afterAll(async () => {
  rmSync(BROKEN_POST, { force: true });
  agent.destroy();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(DATA_DIR, { recursive: true, force: true });
});

describe('npm run publish on a running store', () => {
  it('switches to the new build under load: no failed request, every page with its own assets, the old assets still served', async () => {
    // A tool an admin deleted after the last build stays deleted: nothing of the store's data comes back with a publish.
    const admin = await signAccessToken(new TextEncoder().encode(env.JWT_SECRET), DEMO_ADMIN.email);
    const [gone] = JSON.parse((await get('/api/tools')).body) as { _id: string; name: string }[];
    expect((await get(`/api/tools/dlt/${gone._id}`, 'DELETE', admin)).status).toBe(200);
    const before = await servedBuild();
    const oldPage = (await get('/blogs/')).body;
    const oldAssets = [...oldPage.matchAll(/"(\/_astro\/[\w.-]+\.js)"/g)].map((m) => m[1]);
    expect(oldAssets.length).toBeGreaterThan(0);

    const readers = readersOf(get, [
      '/',
      '/blogs/',
      '/myportfolio/',
      '/privacy/',
      '/tools',
      '/api/tools',
      '/api/health',
    ]);
    const published = await publish();
    expect(published.code, published.output).toBe(0);
    const after = readlinkSync(DIST_DIR).split(path.sep).pop()!;
    expect(published.output).toContain(`the store on port ${PORT} serves it now`);
    await new Promise((r) => setTimeout(r, 1500)); // readers on the new build for a moment
    const report = await readers.stop();

    expect(report.failures).toEqual([]);
    expect(report.requests).toBeGreaterThan(200);
    expect(report.builds).toEqual([before, after]);
    expect(await servedBuild()).toBe(after);
    // A page opened before the publish still loads its scripts (ASSET_GRACE_MINUTES).
    for (const asset of oldAssets) expect((await get(asset)).status, asset).toBe(200);
    expect((await get(`/tools/${gone._id}`)).status).toBe(404);
    expect((await get('/')).body).not.toContain(gone.name);
    expect((await get('/api/tools')).body).not.toContain(gone._id);
  }, 600_000);

  it('a build that fails (a broken post) changes nothing that is served', async () => {
    const before = await servedBuild();
    const link = readlinkSync(DIST_DIR);
    writeFileSync(BROKEN_POST, '---\ntitle: Broken\n---\nNo description, author, date or order.\n');
    const readers = readersOf(get, ['/', '/blogs/', '/api/health'], 2);
    const published = await publish();
    const report = await readers.stop();
    rmSync(BROKEN_POST, { force: true });

    expect(published.code).toBe(1);
    expect(published.output).toContain('zz-publish-test-broken.md');
    expect(published.output).toContain('Nothing was published');
    expect(readlinkSync(DIST_DIR)).toBe(link);
    expect(await servedBuild()).toBe(before);
    expect(report.failures).toEqual([]);
    expect(report.builds).toEqual([before]);
    // The failed build left no directory behind.
    expect(existsSync(path.join(`${DIST_DIR}-builds`, '.lock'))).toBe(false);
  }, 600_000);
});
