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

describe('pageScriptsAfterPaint', () => {
  it('replaces the module script tags by one script at the end of <body> that preloads every chunk, then imports them in order', () => {
    const afterPaint = pageScriptsAfterPaint(clientDir());
    const { html, added, hash } = afterPaint(
      page(
        '<script type="module" src="/_astro/header.js"></script><script type="module" src="/_astro/search.js"></script>',
      ),
    );
    expect(html).not.toContain('<script type="module" src=');
    expect(html).not.toContain('rel="modulepreload"');
    expect(added).toBe(2);
    const script = /<script>(requestAnimationFrame[\s\S]*?)<\/script><\/body>/.exec(html)?.[1];
    expect(script).toContain('["/_astro/store.js","/_astro/atom.js"]');
    expect(script).toContain('["/_astro/header.js","/_astro/search.js"].reduce');
    expect(hash).toBe(`sha256-${createHash('sha256').update(script!).digest('base64')}`);
    // The page's policy allows that script and its own others, nothing more.
    const policy = withScriptHash("script-src 'self' 'sha256-other='", hash!);
    expect(pagePolicy(policy, html)).toBe(`script-src 'self' '${hash}'; frame-ancestors 'none'`);
  });

  it('leaves a page without module scripts, or without a <body> end, as it was', () => {
    const afterPaint = pageScriptsAfterPaint(clientDir());
    const plain = page('');
    expect(afterPaint(plain)).toEqual({ html: plain, added: 0 });
    const fragment = '<script type="module" src="/_astro/search.js"></script><p>part of a page</p>';
    expect(afterPaint(fragment)).toEqual({ html: fragment, added: 0 });
  });
});
