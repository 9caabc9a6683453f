// Two calls in Astro's server code map ICU's data of the node binary into the store's process, where it stays
// resident for the life of the process (~10 MiB of a PostgreSQL store's ~150 at rest, bench/before-after.md):
// - the logger makes an `Intl.DateTimeFormat` when its module loads, for the timestamps of the dev server's
//   log lines, which our server never prints;
// - the router sorts its routes once at start with `localeCompare` (ICU's collation).
// The build makes the first on its first use and sorts route names by their code units: both sorted strings
// are URL paths, and the order among distinct static segments (or, last, among routes of equal rank) never
// decides which route answers a request, as those never match the same path.
// If Astro's files change, the build stops here, so the saving is not lost unnoticed.
import type { Plugin } from 'vite';

interface Patch {
  file: RegExp;
  /** Each text, which must be there, and what it becomes. */
  replace: [string, string][];
  /** Appended to the module (function declarations are hoisted). */
  helper: string;
}

const PATCHES: Patch[] = [
  {
    file: /[\\/]astro[\\/]dist[\\/]core[\\/]logger[\\/]core\.js$/,
    replace: [['new Intl.DateTimeFormat(', '__lazyDateTimeFormat(']],
    helper:
      'function __lazyDateTimeFormat(...args) { let made; return { format: (date) => (made ??= new Intl.DateTimeFormat(...args)).format(date) }; }',
  },
  {
    file: /[\\/]astro[\\/]dist[\\/]core[\\/]routing[\\/]priority\.js$/,
    replace: [
      ['aContent.localeCompare(bContent)', '__codeUnitCompare(aContent, bContent)'],
      ['a.route.localeCompare(b.route)', '__codeUnitCompare(a.route, b.route)'],
    ],
    helper: 'function __codeUnitCompare(a, b) { return a < b ? -1 : a > b ? 1 : 0; }',
  },
];

/** The code of `id` with the patch that applies to it, or undefined when none does. */
export function withoutIcuAtStart(code: string, id: string): string | undefined {
  const patch = PATCHES.find((p) => p.file.test(id));
  if (!patch) return undefined;
  let patched = code;
  for (const [from, to] of patch.replace) {
    if (!patched.includes(from))
      throw new Error(
        `${id} no longer holds "${from}": check whether it still maps ICU at start, then update scripts/lib/no-icu-at-start.ts`,
      );
    patched = patched.replaceAll(from, to);
  }
  return `${patched}\n${patch.helper}\n`;
}

export const noIcuAtStart = (): Plugin => ({
  name: 'ironcrest:no-icu-at-start',
  transform(code, id) {
    const patched = withoutIcuAtStart(code, id);
    return patched === undefined ? undefined : { code: patched, map: null };
  },
});
