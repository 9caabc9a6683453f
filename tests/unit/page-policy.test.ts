// A page's policy keeps only the hashes of its own inline scripts and styles (src/server/host/page-policy.ts):
// the site-wide list made the home page's answer miss a connection's first round trip (issue 30, goal 6).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pagePolicy } from '../../src/server/host/page-policy';

const sha = (text: string, algorithm = 'sha256') =>
  `'${algorithm}-${createHash(algorithm).update(text).digest('base64')}'`;
const mine = 'document.documentElement.dataset.js = "1"';
const theirs = 'console.log("another page")';
const style = '.a{color:red}';
const policy =
  `default-src 'self';img-src 'self' data:; script-src 'self' 'wasm-unsafe-eval' ${sha(mine)} ${sha(theirs)}; ` +
  `style-src 'self' ${sha(style)} ${sha('.b{}')};`;

describe('pagePolicy', () => {
  it("keeps the hashes of the page's own inline scripts and styles, drops the others, forbids framing", () => {
    const html = `<style>${style}</style><script>${mine}</script><script type="module" src="/_astro/a.js"></script>`;
    expect(pagePolicy(policy, html)).toBe(
      `default-src 'self';img-src 'self' data:; script-src 'self' 'wasm-unsafe-eval' ${sha(mine)}; ` +
        `style-src 'self' ${sha(style)}; frame-ancestors 'none'`,
    );
  });

  it("never adds a hash the policy did not list, and a script's src is not its text", () => {
    const html = `<script src="/x.js">${theirs}</script><script>alert(1)</script>`;
    const narrowed = pagePolicy(policy, html);
    expect(narrowed).not.toContain(sha(theirs));
    expect(narrowed).not.toContain(sha('alert(1)'));
    expect(narrowed).toContain("script-src 'self' 'wasm-unsafe-eval';");
  });

  it("leaves a directive with 'unsafe-inline' whole: without its hashes it would allow every inline script", () => {
    const lax = `script-src 'self' 'unsafe-inline' ${sha(theirs)}`;
    expect(pagePolicy(lax, '<p>no scripts</p>')).toBe(`${lax}; frame-ancestors 'none'`);
  });

  it('matches sha384 and sha512 hashes, attributes, upper-case tags and a multi-line module script', () => {
    const module = 'const headers = new Headers({});\nlet r = await fetch("/_server-islands/X?p=&s=");';
    const strict = `script-src 'self' ${sha(module, 'sha384')} ${sha(mine, 'sha512')} ${sha(theirs, 'sha512')}`;
    const html = `<SCRIPT type="module" data-island-id="1">${module}</SCRIPT><script defer>${mine}</script >`;
    expect(pagePolicy(strict, html)).toBe(
      `script-src 'self' ${sha(module, 'sha384')} ${sha(mine, 'sha512')}; frame-ancestors 'none'`,
    );
  });

  it('keeps an existing framing rule', () => {
    expect(pagePolicy("default-src 'self'; frame-ancestors 'self'", '')).toBe(
      "default-src 'self'; frame-ancestors 'self'",
    );
  });
});
