// The build keeps Astro's server code from mapping ICU's data at start (scripts/lib/no-icu-at-start.ts):
// the patches apply to the Astro installed, and what they put in place behaves as what they replace.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutIcuAtStart } from '../../scripts/lib/no-icu-at-start';

const astroDist = path.join(path.dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'dist');
const read = (file: string) => ({
  id: path.join(astroDist, file),
  code: readFileSync(path.join(astroDist, file), 'utf8'),
});

describe("Astro's server code without ICU at start", () => {
  it("makes the logger's clock format on first use, the same text", () => {
    const { id, code } = read('core/logger/core.js');
    const patched = withoutIcuAtStart(code, id)!;
    const cut = patched.lastIndexOf('function __lazyDateTimeFormat');
    expect(patched.slice(0, cut)).not.toContain('new Intl.');
    const lazy = new Function(`${patched.slice(cut)}\nreturn __lazyDateTimeFormat;`)();
    const options = { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false } as const;
    const at = new Date(Date.UTC(2026, 10, 29, 23, 5, 9));
    expect(lazy([], options).format(at)).toBe(new Intl.DateTimeFormat([], options).format(at));
  });

  it('sorts routes without localeCompare, static before dynamic as before', async () => {
    const { id, code } = read('core/routing/priority.js');
    const patched = withoutIcuAtStart(code, id)!;
    expect(patched).not.toContain('localeCompare');
    const { routeComparator } = (await import(`data:text/javascript,${encodeURIComponent(patched)}`)) as {
      routeComparator: (a: unknown, b: unknown) => number;
    };
    const route = (p: string, type = 'page') => ({
      route: p,
      type,
      segments: p
        .split('/')
        .slice(1)
        .map((s) => [{ content: s, dynamic: s.startsWith('['), spread: s.startsWith('[...') }]),
    });
    const routes = ['/tools/[id]', '/tools/page/[n]', '/api/[...path]', '/tools', '/blogs/[slug]', '/blogs'].map((p) =>
      route(p),
    );
    expect(routes.sort(routeComparator).map((r) => r.route)).toEqual([
      '/api/[...path]',
      '/blogs/[slug]',
      '/blogs',
      '/tools/page/[n]',
      '/tools/[id]',
      '/tools',
    ]);
  });

  it('stops the build when Astro changed the code it patches, and leaves other files alone', () => {
    const { id } = read('core/logger/core.js');
    expect(() => withoutIcuAtStart('const x = 1;', id)).toThrow(/no longer holds/);
    expect(withoutIcuAtStart('a.localeCompare(b)', path.join(astroDist, 'core/other.js'))).toBeUndefined();
  });
});
