// A running server follows DIST_DIR's link (src/server/builds/site-reload.ts): at once when asked (SIGHUP calls
// `check`), else by reading the link; each new build's Astro handler is imported from its own directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildsDirOf, pointAt } from '../../src/server/builds/site-builds';
import { followBuilds, loadBuild, type LoadedBuild } from '../../src/server/builds/site-reload';

let root: string;
let dist: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-reload-'));
  dist = path.join(root, 'dist');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A build whose Astro handler answers with its own name. */
function build(id: string): string {
  const dir = path.join(buildsDirOf(dist), id);
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  writeFileSync(path.join(dir, 'server', 'entry.mjs'), `export const handler = () => ${JSON.stringify(id)};`);
  return dir;
}
const answer = (b: LoadedBuild) => (b.astro as unknown as () => string)();

describe('following the served build', () => {
  it('loads the build DIST_DIR points at, its own handler', async () => {
    pointAt(dist, build('20261126-100000-aaaa'));
    const first = await loadBuild(dist);
    expect(first.id).toBe('20261126-100000-aaaa');
    expect(answer(first)).toBe('20261126-100000-aaaa');
    await expect(loadBuild(path.join(root, 'none'))).rejects.toThrow(/no build/);
  });

  it('switches when asked (SIGHUP), each new build once, the old handler left to requests already running', async () => {
    pointAt(dist, build('20261126-100000-aaaa'));
    const first = await loadBuild(dist);
    const seen: string[] = [];
    const errors: Error[] = [];
    // A poll too slow to matter here: only `check` (what SIGHUP calls) can switch.
    const follower = followBuilds(
      dist,
      first.dir,
      (b) => seen.push(answer(b)),
      (e) => errors.push(e),
      3_600_000,
    );
    try {
      await follower.check();
      expect(seen).toEqual([]);
      pointAt(dist, build('20261126-110000-bbbb'));
      await follower.check();
      await follower.check();
      expect(seen).toEqual(['20261126-110000-bbbb']);
      expect(answer(first)).toBe('20261126-100000-aaaa');
      // A build that cannot be loaded is reported, and the last good one stays served.
      const broken = build('20261126-120000-cccc');
      writeFileSync(path.join(broken, 'server', 'entry.mjs'), 'export const handler = ;');
      pointAt(dist, broken);
      await follower.check();
      expect(seen).toEqual(['20261126-110000-bbbb']);
      expect(errors).toHaveLength(1);
    } finally {
      follower.stop();
    }
  });

  it('sees the link move by itself, within its poll', async () => {
    pointAt(dist, build('20261126-100000-aaaa'));
    const first = await loadBuild(dist);
    const seen: string[] = [];
    const follower = followBuilds(
      dist,
      first.dir,
      (b) => seen.push(b.id),
      () => {},
      20,
    );
    try {
      pointAt(dist, build('20261126-110000-bbbb'));
      await expect.poll(() => seen, { timeout: 2000 }).toEqual(['20261126-110000-bbbb']);
    } finally {
      follower.stop();
    }
  });
});
