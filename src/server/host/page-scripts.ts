// A page's own scripts (the header's session bits, the search trigger, the contact form) start after its
// first paint. Astro links them as module scripts in <head>, and we used to add a <link rel="modulepreload">
// for every chunk they import: a dozen requests at high priority before the first paint. On a slow link they
// took bandwidth from the hero image, and Lighthouse's model of a slow phone counted each as a round trip
// before the first paint (home LCP ~1,210 ms; ~905 ms without them). So the tags are replaced by one inline
// script at the end of <body>: once the first paint is shown it preloads every chunk at once (no round trip per
// level of imports) and imports the page's scripts in document order. A server island's fetch (home's
// grid) waits for that paint too; client islands are left to their directives (client:signedin waits
// for it as well), and dynamic imports (sign-out, toasts) load when used.
// Used by the build (scripts/postbuild.ts, on prebuilt pages) and by the server (pages it renders); the
// hashes of the scripts it writes go into the page's policy (_headers.json, live-pages.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterFirstPaint } from '../../lib/after-first-paint.ts';

// Runs over our own built modules, never over request data.
// eslint-disable-next-line regexp/no-super-linear-backtracking
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g;

/** What a built module imports statically (`import … from`, `import '…'`, `export … from`), as written. */
export const staticImports = (code: string): string[] => [...code.matchAll(STATIC_IMPORT)].map((m) => m[1]);
const ENTRY_TAG = /<script type="module" src="(\/_astro\/[^"]+\.js)"><\/script>/g;

export function pageScriptsAfterPaint(clientDir: string) {
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

  /**
   * The page with its module scripts started after its first paint, and its server islands fetched
   * after it too; the hashes of the scripts it wrote ('sha256-…', for the page's policy), and how many
   * chunks it preloads.
   */
  return function startAfterPaint(html: string): { html: string; added: number; hashes: string[] } {
    const tags = [...html.matchAll(ENTRY_TAG)];
    if (!tags.length || !html.includes('</body>')) return { html, added: 0, hashes: [] };
    const entries = tags.map((m) => m[1]);
    const chunks = new Set<string>();
    for (const entry of entries) collect(entry, chunks);
    for (const entry of entries) chunks.delete(entry);
    const script = loader([...chunks], entries);
    let page = html;
    for (const [tag] of tags) page = page.replace(tag, '');
    page = page.replace('</body>', `<script>${script}</script></body>`);
    const hashes = [script];
    // A server island's fetch waits for the paint too: Astro preloads it from <head>, and its answer
    // replaced the fallback (a parse, a layout, six card images) before the first paint was shown.
    page = page.replace(ISLAND_PRELOAD, '').replace(ISLAND_SCRIPT, (_, open: string, body: string) => {
      const waiting = `await new Promise((r)=>${afterPaint('r')});${body}`;
      hashes.push(waiting);
      return `${open}${waiting}</script>`;
    });
    return { html: page, added: chunks.size, hashes: hashes.map(sha256) };
  };
}

const sha256 = (script: string) => `sha256-${createHash('sha256').update(script).digest('base64')}`;
const ISLAND_PRELOAD = /<link rel="preload" as="fetch" href="\/_server-islands\/[^"]*" crossorigin="anonymous">/g;
const ISLAND_SCRIPT = /(<script type="module" data-astro-rerun data-island-id="[^"]+">)([\s\S]*?)<\/script>/g;

/** `fn` (source text) called once the first paint has been shown (src/lib/after-first-paint.ts, its spaces folded). */
const afterPaint = (fn: string) => `(${afterFirstPaint.toString().replace(/\s+/g, ' ')})(${fn})`;

/**
 * After the first paint: a preload of every chunk at once, then each entry imported in document order (a
 * failed one does not stop the next). JSON arrays of our own built URLs, never request data.
 */
function loader(chunks: string[], entries: string[]): string {
  return afterPaint(
    `()=>{for(const u of ${JSON.stringify(chunks)}){` +
      `const l=document.createElement('link');l.rel='modulepreload';l.href=u;document.head.append(l)}` +
      `${JSON.stringify(entries)}.reduce((p,u)=>p.finally(()=>import(u)),Promise.resolve())}`,
  );
}
