// The build pointer: a new build is switched in with one rename, builds no server needs are removed, and
// one publish runs at a time.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildsDirOf,
  lockBuilds,
  newBuildId,
  pointAt,
  pruneBuilds,
  servedBuild,
} from '../../src/server/builds/site-builds';

let root: string;
let dist: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-builds-'));
  dist = path.join(root, 'dist');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A finished build directory named `id`. */
function build(id: string): string {
  const dir = path.join(buildsDirOf(dist), id);
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  mkdirSync(path.join(dir, 'client'), { recursive: true });
  writeFileSync(path.join(dir, 'server', 'entry.mjs'), '');
  writeFileSync(path.join(dir, 'client', 'index.html'), id);
  return dir;
}

describe('site builds', () => {
  it('names builds so they sort by time and never collide', () => {
    const at = new Date('2026-11-26T15:30:00Z');
    expect(newBuildId(at)).toMatch(/^20261126-153000-[0-9a-f]{4}$/);
    expect(new Set(Array.from({ length: 50 }, () => newBuildId(at))).size).toBeGreaterThan(45);
  });

  it('points DIST_DIR at a build through a relative link, and switches with one rename', () => {
    expect(servedBuild(dist)).toBeUndefined();
    const first = build('a');
    pointAt(dist, first);
    expect(lstatSync(dist).isSymbolicLink()).toBe(true);
    expect(readlinkSync(dist)).toBe(path.join('dist-builds', 'a'));
    expect(servedBuild(dist)).toEqual({ id: 'a', dir: first });
    expect(readFileSync(path.join(dist, 'client', 'index.html'), 'utf8')).toBe('a');

    pointAt(dist, build('b'));
    expect(servedBuild(dist)?.id).toBe('b');
    // The build replaced knows when it stopped being served, and no temporary link is left behind.
    expect(existsSync(path.join(first, '.retired-at'))).toBe(true);
    expect(existsSync(`${dist}.switching-${process.pid}`)).toBe(false);
    // Switched back to (to go back): served, so no longer retired.
    pointAt(dist, first);
    expect(servedBuild(dist)?.id).toBe('a');
    expect(existsSync(path.join(first, '.retired-at'))).toBe(false);
  });

  it('moves a build made in place by an older version aside before linking', () => {
    mkdirSync(path.join(dist, 'client'), { recursive: true });
    writeFileSync(path.join(dist, 'client', 'index.html'), 'old');
    pointAt(dist, build('b'));
    expect(servedBuild(dist)?.id).toBe('b');
    const moved = pruneBuilds(dist, 60_000);
    expect(moved).toEqual([]); // retired just now: kept for its grace period
  });

  it('removes builds retired longer than the grace period, keeping the last one retired', () => {
    const now = Date.now();
    ['a', 'b', 'c', 'd'].forEach((id, i) => pointAt(dist, build(id), new Date(now - (5 - i) * 3_600_000)));
    // a, b and c were retired hours ago; c is the last one retired and is kept to switch back to.
    expect(pruneBuilds(dist, 3_600_000, now).sort()).toEqual(['a', 'b']);
    expect(servedBuild(dist)?.id).toBe('d');
    expect(existsSync(path.join(buildsDirOf(dist), 'c'))).toBe(true);
  });

  it('keeps every build retired within the grace period', () => {
    const now = Date.now();
    for (const id of ['a', 'b', 'c']) pointAt(dist, build(id), new Date(now - 60_000));
    expect(pruneBuilds(dist, 3_600_000, now)).toEqual([]);
  });

  it('removes what a failed or cut-off build left, never the served one', () => {
    pointAt(dist, build('a'));
    mkdirSync(path.join(buildsDirOf(dist), 'half'), { recursive: true });
    expect(pruneBuilds(dist, 3_600_000)).toEqual(['half']);
    expect(servedBuild(dist)?.id).toBe('a');
  });

  it('lets one publish run at a time, and takes over the lock of a publisher that died', () => {
    const unlock = lockBuilds(dist);
    writeFileSync(path.join(buildsDirOf(dist), '.lock'), String(process.ppid)); // a live process
    expect(() => lockBuilds(dist)).toThrow(/Another build .* is running \(pid \d+\)/);
    writeFileSync(path.join(buildsDirOf(dist), '.lock'), '999999999'); // no such process
    const again = lockBuilds(dist);
    again();
    expect(existsSync(path.join(buildsDirOf(dist), '.lock'))).toBe(false);
    unlock();
  });
});
