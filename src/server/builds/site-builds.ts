// Which build of the site a server serves. `DIST_DIR` (default `dist`) is a symbolic link to one build
// directory in `<DIST_DIR>-builds/<id>`: a publish (scripts/lib/build.ts) builds a new directory beside
// the served one and then replaces the link in one rename, which is atomic, so a reader of the link sees
// the old build or the new one, never a mix. Servers read the link (site-reload.ts) and switch over.
// Used by the server and by the build scripts; node:fs only.
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { processAlive } from '../db/pglite.ts';

/** Where the builds of this DIST_DIR live: beside it, `dist` → `dist-builds/`. */
export const buildsDirOf = (dist: string): string => `${path.resolve(dist)}-builds`;

/** A sortable, unique name for a new build: `20261126-153000-1a2b`. */
export function newBuildId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export interface ServedBuild {
  /** The build's name (its directory's), or `dist` for a build made in place by an older version. */
  id: string;
  /** The build's real directory (`client/`, `server/entry.mjs`, `_headers.json`). */
  dir: string;
}

/** The build DIST_DIR points at now, or undefined when there is none. */
export function servedBuild(dist: string): ServedBuild | undefined {
  let dir: string;
  try {
    dir = realpathSync(dist);
  } catch {
    return undefined;
  }
  return { id: path.basename(dir), dir };
}

/** A file written into a build once it has been served and replaced: when it stopped being served. */
const RETIRED = '.retired-at';

/**
 * Points DIST_DIR at `buildDir` in one rename. A DIST_DIR that is still a real directory (a build made in
 * place by an older version) is moved into the builds directory first.
 */
export function pointAt(dist: string, buildDir: string, now = new Date()): void {
  const link = path.resolve(dist);
  let before = servedBuild(link)?.dir;
  if (lstatOrUndefined(link)?.isDirectory()) {
    before = path.join(buildsDirOf(link), `in-place-${newBuildId(now)}`);
    mkdirSync(buildsDirOf(link), { recursive: true });
    renameSync(link, before);
  }
  const temporary = `${link}.switching-${process.pid}`;
  rmSync(temporary, { force: true });
  symlinkSync(path.relative(path.dirname(link), buildDir), temporary);
  renameSync(temporary, link);
  // Served again (npm run publish -- --switch): no longer retired.
  rmSync(path.join(buildDir, RETIRED), { force: true });
  if (before && before !== path.resolve(buildDir) && existsSync(before))
    writeFileSync(path.join(before, RETIRED), now.toISOString());
}

/** The complete builds kept (a `.build-stamp` is the last file a build writes), oldest first. */
export function readyBuilds(dist: string): { id: string; dir: string; served: boolean; retiredAt?: string }[] {
  const builds = buildsDirOf(dist);
  if (!existsSync(builds)) return [];
  const served = servedBuild(dist)?.dir;
  return readdirSync(builds)
    .sort()
    .map((id) => ({ id, dir: path.join(builds, id) }))
    .filter(
      ({ dir }) => existsSync(path.join(dir, '.build-stamp')) && existsSync(path.join(dir, 'server', 'entry.mjs')),
    )
    .map(({ id, dir }) => {
      const marker = path.join(dir, RETIRED);
      return {
        id,
        dir,
        served: dir === served,
        retiredAt: existsSync(marker) ? readFileSync(marker, 'utf8') : undefined,
      };
    });
}

/**
 * Removes builds no server needs: a build that stopped being served more than `graceMs` ago (its hashed
 * assets are no longer promised to open pages), except the last one retired (kept to switch back to), and
 * leftovers of builds that never finished. Run under the publish lock, so no build is being made meanwhile.
 */
export function pruneBuilds(dist: string, graceMs: number, now = Date.now()): string[] {
  const builds = buildsDirOf(dist);
  if (!existsSync(builds)) return [];
  const served = servedBuild(dist)?.dir;
  const retired: { dir: string; at: number }[] = [];
  const removed: string[] = [];
  for (const name of readdirSync(builds)) {
    const dir = path.join(builds, name);
    if (dir === served || !statSync(dir).isDirectory()) continue;
    const marker = path.join(dir, RETIRED);
    if (existsSync(marker)) retired.push({ dir, at: Date.parse(readFileSync(marker, 'utf8')) || 0 });
    else {
      // Never served: a build that failed or was cut off (the lock says none is being made now).
      rmSync(dir, { recursive: true, force: true });
      removed.push(name);
    }
  }
  retired.sort((a, b) => b.at - a.at);
  for (const { dir, at } of retired.slice(1)) {
    if (now - at < graceMs) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(path.basename(dir));
  }
  return removed;
}

/** One publish at a time per DIST_DIR: a lock file with the publisher's pid (taken over from a dead one). */
export function lockBuilds(dist: string): () => void {
  const builds = buildsDirOf(dist);
  mkdirSync(builds, { recursive: true });
  const file = path.join(builds, '.lock');
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && processAlive(pid))
      throw new Error(`Another build of ${dist} is running (pid ${pid}). Wait for it to finish.`);
    writeFileSync(file, String(process.pid));
  }
  return () => {
    try {
      if (Number(readFileSync(file, 'utf8')) === process.pid) unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

function lstatOrUndefined(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
