// Astro links a page's module scripts, but the chunks they import are found only once each file has
// arrived: a round trip per level (header script → session store) before the page's scripts run.
// This adds a <link rel="modulepreload"> for every chunk they import statically, so the browser
// fetches the set at once. Islands are left alone: preloading React (~60 kB) beside the page's
// largest image delayed that image on slow links more than the island gained. Dynamic imports
// (sign-out, toasts) stay lazy.
// Used by the build (scripts/postbuild.ts, on prebuilt pages) and by the server (pages it renders).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Runs over our own built modules, never over request data.
// eslint-disable-next-line regexp/no-super-linear-backtracking
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g;

/** What a built module imports statically (`import … from`, `import '…'`, `export … from`), as written. */
export const staticImports = (code: string): string[] => [...code.matchAll(STATIC_IMPORT)].map((m) => m[1]);
const ENTRY_SCRIPT = /<script type="module" src="(\/_astro\/[^"]+\.js)"/g;

export function modulePreloader(clientDir: string) {
  const imports = new Map<string, string[]>();
  /** The URLs a module imports statically (read once per module). */
  const direct = (url: string): string[] => {
    let found = imports.get(url);
    if (!found) {
      const file = path.join(clientDir, url);
      const code = existsSync(file) ? readFileSync(file, 'utf8') : '';
      found = staticImports(code)
        .filter((dep) => dep.startsWith('./'))
        .map((dep) => path.posix.join(path.posix.dirname(url), dep));
      imports.set(url, found);
    }
    return found;
  };
  /** Adds every module `url` imports, directly or not, to `seen` (chunks may import each other). */
  const collect = (url: string, seen: Set<string>) => {
    for (const dep of direct(url)) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      collect(dep, seen);
    }
  };

  /** The page with a preload link for every chunk its module scripts import, and how many it added. */
  return function withPreloads(html: string): { html: string; added: number } {
    const scripts = [...html.matchAll(ENTRY_SCRIPT)].map((m) => m[1]);
    if (!scripts.length) return { html, added: 0 };
    const urls = new Set<string>();
    for (const entry of scripts) collect(entry, urls);
    for (const entry of scripts) urls.delete(entry); // already fetched by its own <script>
    for (const url of [...urls]) if (html.includes(`rel="modulepreload" href="${url}"`)) urls.delete(url);
    if (!urls.size) return { html, added: 0 };
    const links = [...urls].map((url) => `<link rel="modulepreload" href="${url}">`).join('');
    return { html: html.replace('</head>', `${links}</head>`), added: urls.size };
  };
}
