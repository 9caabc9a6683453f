// JavaScript each page loads before any interaction (gzip), against its budget.
// Counts module scripts and their static imports, modulepreloads, islands that hydrate at once
// (client:load/idle/only: component + renderer + their imports) and inline scripts. Islands that wait
// for visibility (client:visible) and dynamic import() are not loaded before interaction, so not counted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PageWeight {
  page: string;
  file: string;
  bytes: number;
  budget?: number;
  scripts: number;
}

const KB = 1024;
export const PAGES: { page: string; file: string; budget?: number }[] = [
  { page: '/', file: 'index.html', budget: 20 * KB },
  { page: '/blogs', file: 'blogs/index.html', budget: 8 * KB },
  { page: '/myportfolio', file: 'myportfolio/index.html', budget: 8 * KB },
  { page: '/404', file: '404.html', budget: 8 * KB },
  { page: '/login', file: 'login/index.html' },
  { page: '/dashboard', file: 'dashboard/index.html' },
];

const gz = (data: string | Buffer) => gzipSync(data, { level: 9 }).length;

function staticImports(code: string): string[] {
  const found: string[] = [];
  const re = /(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g;
  for (const m of code.matchAll(re)) found.push(m[1]);
  return found;
}

export function measurePage(clientDir: string, file: string): { bytes: number; scripts: number } {
  const html = readFileSync(path.join(clientDir, file), 'utf8');
  const seen = new Set<string>();
  let bytes = 0;
  const addModule = (url: string, from = '/') => {
    const resolved = new URL(url, `http://x${from}`).pathname;
    if (seen.has(resolved)) return;
    seen.add(resolved);
    const full = path.join(clientDir, resolved);
    if (!existsSync(full)) return;
    const code = readFileSync(full, 'utf8');
    bytes += gz(code);
    for (const dep of staticImports(code)) if (dep.startsWith('.') || dep.startsWith('/')) addModule(dep, resolved);
  };
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const src = /\bsrc="([^"]+)"/.exec(m[1])?.[1];
    if (/type="application\/ld\+json"/.test(m[1])) continue;
    if (src) addModule(src);
    else if (m[2].trim()) {
      bytes += gz(m[2]);
      for (const dep of staticImports(m[2])) if (dep.startsWith('/')) addModule(dep);
    }
  }
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) addModule(m[1]);
  for (const m of html.matchAll(/<astro-island\b([^>]*)>/g)) {
    const attrs = m[1];
    const client = /\bclient="([^"]+)"/.exec(attrs)?.[1];
    if (client === 'visible' || client === 'media') continue;
    for (const key of ['component-url', 'renderer-url']) {
      const url = new RegExp(`${key}="([^"]+)"`).exec(attrs)?.[1];
      if (url) addModule(url);
    }
  }
  return { bytes, scripts: seen.size };
}

/** One prebuilt tool page (they all load the same scripts), or undefined when there is none. */
export function toolPage(clientDir: string): { page: string; file: string } | undefined {
  const dir = path.join(clientDir, 'tools');
  const id = existsSync(dir)
    ? readdirSync(dir).find((name) => existsSync(path.join(dir, name, 'index.html')))
    : undefined;
  return id ? { page: `/tools/${id}`, file: `tools/${id}/index.html` } : undefined;
}

export function measurePages(distDir: string): PageWeight[] {
  const clientDir = path.join(distDir, 'client');
  const tool = toolPage(clientDir);
  const pages = [...PAGES, ...(tool ? [{ ...tool, page: '/tools/{id}' }] : [])];
  return pages
    .filter((p) => existsSync(path.join(clientDir, p.file)))
    .map((p) => ({ ...p, ...measurePage(clientDir, p.file) }));
}

export function printWeights(weights: PageWeight[]): boolean {
  let ok = true;
  console.log('JavaScript before interaction (gzip):');
  for (const w of weights) {
    const over = w.budget !== undefined && w.bytes > w.budget;
    if (over) ok = false;
    const budget = w.budget ? `budget ${(w.budget / KB).toFixed(0)} kB` : 'no budget';
    console.log(
      `  ${over ? '✗' : '✓'} ${w.page.padEnd(14)} ${(w.bytes / KB).toFixed(1).padStart(6)} kB  (${w.scripts} files, ${budget})`,
    );
  }
  return ok;
}
