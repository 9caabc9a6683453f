// JavaScript each page loads before any interaction (gzip), against its budget; and the size of each
// storefront page's HTML as served (brotli), which must fit the first TCP round trip.
// Counts module scripts and their static imports, modulepreloads, islands that hydrate at once
// (client:load/idle/only: component + renderer + their imports) and inline scripts. Islands that wait
// for visibility (client:visible) and dynamic import() are not loaded before interaction, so not counted.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { staticImports } from '../../src/server/host/page-scripts.ts';

export interface PageWeight {
  page: string;
  file: string;
  bytes: number;
  budget?: number;
  scripts: number;
  /** The HTML as served (brotli), and whether it must fit the first round trip. */
  document?: number;
  firstWindow?: boolean;
  /** The whole answer as a store sends it (status line, headers, brotli HTML), when measured over HTTP. */
  response?: number;
  /** The same scripts as sent (brotli), and its budget (issue 30: a signed-in tool page ≤ 92 kB). */
  sent?: number;
  sentBudget?: number;
}

const KB = 1024;
/**
 * A new connection's first round trip carries 10 TCP segments (14,600 bytes, the initial congestion
 * window Lighthouse models too). A storefront page's answer past this, headers and brotli HTML together,
 * costs a whole extra round trip before first paint.
 */
export const FIRST_WINDOW = 14_600;
/** The HTML alone, measured from a build without a server: the window less ~1.6 kB of headers. */
export const DOCUMENT_BUDGET = 13_000;

/** Bytes of an HTTP/1.1 answer on the wire: status line, headers, the blank line and the body. */
export function responseBytes(
  status: number,
  statusText: string,
  headers: { name: string; value: string }[],
  body: number,
) {
  let bytes = `HTTP/1.1 ${status} ${statusText}\r\n\r\n`.length + body;
  for (const { name, value } of headers) bytes += Buffer.byteLength(`${name}: ${value}\r\n`);
  return bytes;
}
export const PAGES: { page: string; file: string; budget?: number; firstWindow?: boolean }[] = [
  { page: '/blogs', file: 'blogs/index.html', budget: 8 * KB, firstWindow: true },
  { page: '/myportfolio', file: 'myportfolio/index.html', budget: 8 * KB, firstWindow: true },
  { page: '/privacy', file: 'privacy/index.html', budget: 8 * KB, firstWindow: true },
  { page: '/blogs/tags/react', file: 'blogs/tags/react/index.html', budget: 8 * KB, firstWindow: true },
  { page: '/404', file: '404.html', budget: 8 * KB, firstWindow: true },
  { page: '/login', file: 'login/index.html' },
  { page: '/dashboard', file: 'dashboard/index.html' },
];

const gz = (data: string | Buffer) => gzipSync(data, { level: 9 }).length;
/** As the server sends our scripts: brotli 11 (scripts/postbuild.ts). */
export const br = (data: string) =>
  brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** The page's HTML as the server sends it: its precompressed .br, else compressed here. */
function documentBytes(clientDir: string, file: string): number {
  const full = path.join(clientDir, file);
  return existsSync(`${full}.br`) ? statSync(`${full}.br`).size : brotliCompressSync(readFileSync(full)).length;
}

export function measurePage(clientDir: string, file: string): { bytes: number; scripts: number; document: number } {
  const html = readFileSync(path.join(clientDir, file), 'utf8');
  return { ...measureHtml(clientDir, html), document: documentBytes(clientDir, file) };
}

/** The JavaScript a page's HTML loads before any interaction (gzip), its modules read from clientDir. */
export function measureHtml(
  clientDir: string,
  html: string,
  compressed: (data: string) => number = gz,
): { bytes: number; scripts: number } {
  const seen = new Set<string>();
  let bytes = 0;
  const addModule = (url: string, from = '/') => {
    const resolved = new URL(url, `http://x${from}`).pathname;
    if (seen.has(resolved)) return;
    seen.add(resolved);
    const full = path.join(clientDir, resolved);
    if (!existsSync(full)) return;
    const code = readFileSync(full, 'utf8');
    bytes += compressed(code);
    for (const dep of staticImports(code)) if (dep.startsWith('.') || dep.startsWith('/')) addModule(dep, resolved);
  };
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const src = /\bsrc="([^"]+)"/.exec(m[1])?.[1];
    if (/type="application\/ld\+json"/.test(m[1])) continue;
    if (src) addModule(src);
    else if (m[2].trim()) {
      bytes += compressed(m[2]);
      for (const dep of staticImports(m[2])) if (dep.startsWith('/')) addModule(dep);
      // The page's scripts, started after the first paint by an inline script (page-scripts.ts): loaded
      // without any interaction, so counted.
      for (const url of m[2].matchAll(/"(\/_astro\/[^"]+\.js)"/g)) addModule(url[1]);
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

/** Whether a page is over one of its budgets. */
export const overBudget = (w: PageWeight) =>
  (w.budget !== undefined && w.bytes > w.budget) ||
  (w.sentBudget !== undefined && (w.sent ?? 0) > w.sentBudget) ||
  overWindow(w);

/** Whether a storefront page misses the first round trip: its whole answer when served, else its HTML. */
export const overWindow = (w: PageWeight) =>
  w.firstWindow === true &&
  (w.response !== undefined ? w.response > FIRST_WINDOW : (w.document ?? 0) > DOCUMENT_BUDGET);

/** A tool's page to measure (they all load the same scripts): the newest tool's, as a running store serves it. */
export async function toolPageOf(storeUrl: string): Promise<string> {
  const tools = (await (await fetch(`${storeUrl}/api/tools`)).json()) as { _id: string }[];
  if (!tools.length) throw new Error(`the store at ${storeUrl} has no tools`);
  return `/tools/${tools[0]._id}`;
}

/** The prebuilt pages of a build (pages showing live data are rendered by the server: see parts/pages.ts). */
export function measurePages(distDir: string): PageWeight[] {
  const clientDir = path.join(distDir, 'client');
  return PAGES.filter((p) => existsSync(path.join(clientDir, p.file))).map((p) => ({
    ...p,
    ...measurePage(clientDir, p.file),
  }));
}

export function printWeights(weights: PageWeight[]): boolean {
  console.log(
    `JavaScript before interaction (gzip), and the HTML (brotli; a storefront page's answer ≤ ${FIRST_WINDOW} B, its HTML alone ≤ ${DOCUMENT_BUDGET} B):`,
  );
  for (const w of weights) {
    const budget = w.budget ? `budget ${(w.budget / KB).toFixed(0)} kB` : 'no budget';
    const answer =
      (w.response === undefined ? '' : `, answer ${w.response} B`) +
      (w.sent === undefined
        ? ''
        : `; scripts as sent (brotli) ${(w.sent / KB).toFixed(1)} kB, budget ${w.sentBudget! / KB} kB`);
    const html = `HTML ${w.document} B${answer}${w.firstWindow ? '' : ', no budget'}`;
    console.log(
      `  ${overBudget(w) ? '✗' : '✓'} ${w.page.padEnd(14)} ${(w.bytes / KB).toFixed(1).padStart(6)} kB  (${w.scripts} files, ${budget}; ${html})`,
    );
  }
  return !weights.some(overBudget);
}
