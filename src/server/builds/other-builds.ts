// Hashed assets (`/_astro/*`, named by their content) of builds other than the one served. A page a
// shopper opened before a publish keeps loading its scripts and styles from the build it came from, for
// ASSET_GRACE_MINUTES; and while several servers switch to a new build one after another, a page from a
// server already on it may ask a server not yet on it for the new assets: those come from the new build's
// directory, which is complete on disk before any server switches (`.build-stamp` is its last file).
import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { staticSite, type StaticSite } from '../host/static-files.ts';

const BUILD_ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;
/** How long a listing of the builds directory is trusted: asked at most this often, only on a miss. */
const LISTING_MS = 1000;

/** `served` is the build served at start; `buildsDir` where builds are (none: only retired builds are asked). */
export function otherBuilds({ buildsDir, csp, served }: { buildsDir?: string; csp: string; served: string }) {
  let retired: { id: string; site: StaticSite; until: number }[] = [];
  const ready = new Map<string, StaticSite>();
  let listedAt = -Infinity;

  /** Builds on disk, complete and newer than the served one (a switch under way). */
  function newer(): StaticSite[] {
    if (!buildsDir) return [];
    if (performance.now() - listedAt > LISTING_MS) {
      listedAt = performance.now();
      let names: string[] = [];
      try {
        names = readdirSync(buildsDir).filter((name) => BUILD_ID.test(name) && name > served);
      } catch {
        // no builds directory: a build made in place
      }
      for (const name of ready.keys()) if (!names.includes(name)) ready.delete(name);
      for (const name of names) {
        const dir = path.join(buildsDir, name);
        if (!ready.has(name) && existsSync(path.join(dir, '.build-stamp')))
          ready.set(name, staticSite(path.join(dir, 'client'), path.join(dir, '_headers.json'), csp));
      }
    }
    return [...ready.values()];
  }

  return {
    /** Answers a hashed asset the served build does not have from another build; false when none has it. */
    serve(req: IncomingMessage, res: ServerResponse, pathname: string, headers: string[]): boolean {
      if (!pathname.startsWith('/_astro/')) return false;
      const now = Date.now();
      if (retired.some((r) => r.until <= now)) retired = retired.filter((r) => r.until > now);
      for (const r of retired) if (r.site.serve(req, res, pathname, headers)) return true;
      for (const site of newer()) if (site.serve(req, res, pathname, headers)) return true;
      return false;
    },
    /** The served build is now `id`; the one it replaces stays asked for `graceMs`. */
    switched(id: string, replaced: { id: string; site: StaticSite }, graceMs: number) {
      served = id;
      ready.delete(id);
      listedAt = -Infinity;
      retired = [{ ...replaced, until: Date.now() + graceMs }, ...retired.filter((r) => r.id !== id)];
    },
  };
}
