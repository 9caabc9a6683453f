// A publish switches a running server to a new build (issue 28): the next request gets the new build's
// files, /api/health names the build, and the replaced build's hashed assets stay served for the grace
// period, so a page opened before the switch still loads its scripts and styles.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from './harness';
import { startOuter, type Outer } from './outer';

let runtime: TestRuntime;
let outer: Outer;
const buildsDir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-builds-'));
beforeAll(async () => {
  runtime = await createTestRuntime();
  outer = await startOuter(runtime, { buildsDir });
});
afterAll(async () => {
  await outer?.close();
  await runtime?.close();
  rmSync(buildsDir, { recursive: true, force: true });
});

/** A build in the builds directory, as a publish writes it; `.build-stamp` is the last file it writes. */
function buildOnDisk(id: string, files: Record<string, string>, ready: boolean) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(buildsDir, id, 'client', file)), { recursive: true });
    writeFileSync(path.join(buildsDir, id, 'client', file), text);
  }
  if (ready) writeFileSync(path.join(buildsDir, id, '.build-stamp'), '');
}

const [ONE, TWO, THREE] = ['20261126-110000-1111', '20261126-120000-2222', '20261126-130000-3333'];
const page = (title: string, script: string) =>
  `<!doctype html><title>${title}</title><script type="module" src="/_astro/${script}"></script>`;

describe('switching builds', () => {
  it('serves the new build from the next request, keeps the old hashed assets for the grace period, then drops them', async () => {
    outer.switchBuild(ONE, { 'blogs/index.html': page('One', 'one.A1.js'), '_astro/one.A1.js': 'one()' }, 60_000);
    expect(JSON.parse((await outer.raw('GET', '/api/health')).body)).toEqual({ ok: true, build: ONE });
    expect((await outer.raw('GET', '/blogs')).body).toContain('<title>One</title>');

    outer.switchBuild(TWO, { 'blogs/index.html': page('Two', 'two.B2.js'), '_astro/two.B2.js': 'two()' }, 60_000);
    expect(JSON.parse((await outer.raw('GET', '/api/health')).body).build).toBe(TWO);
    expect((await outer.raw('GET', '/blogs')).body).toContain('<title>Two</title>');
    // A page of build one, open in a browser, still gets its script.
    const old = await outer.raw('GET', '/_astro/one.A1.js');
    expect(old.status).toBe(200);
    expect(old.body).toBe('one()');
    expect(old.headers['cache-control']).toContain('immutable');
    expect((await outer.raw('GET', '/_astro/two.B2.js')).status).toBe(200);

    // Replaced with no grace, build two's assets go at once, while one's (60 s) are still served.
    outer.switchBuild(THREE, { 'blogs/index.html': page('Three', 'three.C3.js'), '_astro/three.C3.js': 'three()' }, 0);
    expect((await outer.raw('GET', '/_astro/one.A1.js')).status).toBe(200);
    expect((await outer.raw('GET', '/_astro/two.B2.js')).status).toBe(404);
    // Only hashed assets outlive their build: an old page is not served again.
    expect((await outer.raw('GET', '/blogs')).body).toContain('<title>Three</title>');
  });

  it('serves the hashed assets of a newer build that is complete on disk (another server switched first), not of one still being written', async () => {
    buildOnDisk('20991231-000000-bbbb', { '_astro/next.N1.js': 'next()' }, true);
    buildOnDisk('20991231-000001-cccc', { '_astro/half.H1.js': 'half()' }, false);
    await new Promise((r) => setTimeout(r, 1100)); // the listing is read at most once a second
    const next = await outer.raw('GET', '/_astro/next.N1.js');
    expect(next.status).toBe(200);
    expect(next.body).toBe('next()');
    expect((await outer.raw('GET', '/_astro/half.H1.js')).status).toBe(404);
    // Only hashed assets: a newer build's pages are served once this server switches to it.
    buildOnDisk('20991231-000002-dddd', { 'press/index.html': '<title>Press</title>' }, true);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await outer.raw('GET', '/press')).status).toBe(404);
  });
});
