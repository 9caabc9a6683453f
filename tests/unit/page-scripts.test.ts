// A page's own scripts start after its first paint (src/server/host/page-scripts.ts): module script tags in
// <head> were fetched at high priority before the first paint, with a preload for each chunk they import.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageScriptsAfterPaint } from '../../src/server/host/page-scripts';
import { pagePolicy, withScriptHash } from '../../src/server/host/page-policy';

function clientDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'page-scripts-'));
  mkdirSync(path.join(dir, '_astro'));
  const write = (name: string, code: string) => writeFileSync(path.join(dir, '_astro', name), code);
  write('header.js', `import{a}from"./store.js";import"./atom.js";a()`);
  write('store.js', `import{b}from"./atom.js";export const a=b`);
  write('atom.js', `export const b=()=>{}`);
  write('search.js', `document.title`);
  return dir;
}

const page = (head: string) =>
  `<!doctype html><html><head>${head}<style>p{}</style></head><body><p>Hi</p><script>document.body.dataset.x="1"</script></body></html>`;

const sha256 = (script: string) => `sha256-${createHash('sha256').update(script).digest('base64')}`;

describe('pageScriptsAfterPaint', () => {
  it('replaces the module script tags by one script at the end of <body> that preloads every chunk, then imports them in order', () => {
    const afterPaint = pageScriptsAfterPaint(clientDir());
    const { html, added, hashes } = afterPaint(
      page(
        '<script type="module" src="/_astro/header.js"></script><script type="module" src="/_astro/search.js"></script>',
      ),
    );
    expect(html).not.toContain('<script type="module" src=');
    expect(html).not.toContain('rel="modulepreload"');
    expect(added).toBe(2);
    const script = /<script>(\(function afterFirstPaint[\s\S]*?)<\/script><\/body>/.exec(html)?.[1];
    expect(script).toContain('["/_astro/store.js","/_astro/atom.js"]');
    expect(script).toContain('["/_astro/header.js","/_astro/search.js"].reduce');
    // It waits for the first paint to be shown, not for a frame (whose callbacks run before its paint).
    expect(script).toContain('first-contentful-paint');
    expect(hashes).toEqual([sha256(script!)]);
    // The page's policy allows that script and its own others, nothing more.
    const policy = withScriptHash("script-src 'self' 'sha256-other='", hashes[0]);
    expect(pagePolicy(policy, html)).toBe(`script-src 'self' '${hashes[0]}'; frame-ancestors 'none'`);
  });

  it('leaves a page without module scripts, or without a <body> end, as it was', () => {
    const afterPaint = pageScriptsAfterPaint(clientDir());
    const plain = page('');
    expect(afterPaint(plain)).toEqual({ html: plain, added: 0, hashes: [] });
    const fragment = '<script type="module" src="/_astro/search.js"></script><p>part of a page</p>';
    expect(afterPaint(fragment)).toEqual({ html: fragment, added: 0, hashes: [] });
  });

  it('fetches a server island after the first paint: no preload from <head>, its script waits, and the policy allows what it became', () => {
    const afterPaint = pageScriptsAfterPaint(clientDir());
    const fetch = `const headers = new Headers({});\nlet response = await fetch("/_server-islands/Grid?e=1", { headers });replaceServerIsland("id-1", response);`;
    const astroPolicy = `script-src 'self' '${sha256(fetch)}'`;
    const { html, hashes } = afterPaint(
      page(
        '<link rel="preload" as="fetch" href="/_server-islands/Grid?e=1&amp;p=" crossorigin="anonymous"><script type="module" src="/_astro/search.js"></script>',
      ).replace('</body>', `<script type="module" data-astro-rerun data-island-id="id-1">${fetch}</script></body>`),
    );
    expect(html).not.toContain('rel="preload"');
    const island = /<script type="module" data-astro-rerun data-island-id="id-1">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(island).toMatch(
      /^await new Promise\(\(r\)=>\(function afterFirstPaint.*first-contentful-paint.*\)\(r\)\);const headers/,
    );
    expect(island!.endsWith(fetch)).toBe(true);
    expect(hashes).toHaveLength(2);
    expect(hashes[1]).toBe(sha256(island!));
    // The island's old hash goes (its script is no longer on the page), the new one and the loader's come in.
    const policy = pagePolicy(hashes.reduce(withScriptHash, astroPolicy), html);
    expect(policy).toBe(`script-src 'self' '${hashes[0]}' '${hashes[1]}'; frame-ancestors 'none'`);
  });
});
