// What a server loads at start is what it keeps resident for good (issue 30, goal 4): the libraries only
// some requests need load with the first of them, and the pages render with React's production build.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { graph, parse } from './source-graph';

/**
 * Loaded on first use (image uploads, invoices, sending mail) or only where configured (Stripe; PGlite, which
 * a store on PostgreSQL never opens).
 */
const ON_USE = ['sharp', 'pdf-lib', 'nodemailer', 'stripe', '@electric-sql/pglite'];

describe('what a server loads at start', () => {
  it('reaches the on-use libraries from main.ts only through dynamic imports', () => {
    const edges = graph();
    const reached = new Set(['src/server/main.ts']);
    for (let grew = true; grew;) {
      grew = false;
      for (const e of edges) {
        if (!reached.has(e.from) || e.kind === 'type' || e.kind === 'dynamic' || reached.has(e.to!)) continue;
        reached.add(e.to!);
        grew = true;
      }
    }
    expect(reached.size).toBeGreaterThan(50); // the walk followed the server's imports
    const loads = [...reached].flatMap((file) =>
      parse(file)
        .imports.filter((e) => ON_USE.includes(e.specifier) && e.kind !== 'type' && e.kind !== 'dynamic')
        .map((e) => `${file} imports ${e.specifier}`),
    );
    expect(loads).toEqual([]);
  });

  it("renders with React's production build when NODE_ENV is not 'production', and leaves NODE_ENV as it was, once per process", () => {
    const script = `
      import { createRequire } from 'node:module';
      const { preferReactProduction } = await import('./src/server/builds/react-production.ts');
      await preferReactProduction();
      const env = process.env.NODE_ENV ?? null;
      const once = preferReactProduction() === preferReactProduction(); // a publish later changes nothing
      const envAfterAgain = process.env.NODE_ENV ?? null;
      const { renderToString } = await import('react-dom/server');
      const { createElement } = await import('react');
      const html = renderToString(createElement('p', null, 'hammer'));
      const run = Object.entries(createRequire(import.meta.url).cache)
        .filter(([file, m]) => /\\/react(-dom)?\\/cjs\\//.test(file) && m.loaded)
        .map(([file]) => file.split('/cjs/')[1]);
      console.log(JSON.stringify({ env, html, run, once, envAfterAgain }));`;
    for (const mode of [undefined, 'development']) {
      const env = { ...process.env, NODE_ENV: mode };
      if (!mode) delete env.NODE_ENV;
      const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env });
      expect(out.stderr).not.toMatch(/Error/);
      const { env: after, html, run, once, envAfterAgain } = JSON.parse(out.stdout.trim().split('\n').pop()!);
      expect(after).toBe(mode ?? null);
      expect(once).toBe(true);
      expect(envAfterAgain).toBe(mode ?? null);
      expect(html).toBe('<p>hammer</p>');
      expect(run).toContain('react-dom-server.node.production.js');
      expect(run.filter((f: string) => f.includes('development'))).toEqual([]);
    }
  });
});
