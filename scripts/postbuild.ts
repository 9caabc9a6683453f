// After `astro build`: the header search's Pagefind index of the catalogue the build rendered (into
// dist/client/pagefind; the server rebuilds it live when tools change: src/server/host/search-index.ts),
// start each page's scripts after its first paint (src/server/host/page-scripts.ts; the script that does it is
// allowed by the page's policy in ../_headers.json), then write .br and .gz beside
// every compressible file in dist/client, so the server sends them without compressing on each request.
import os from 'node:os';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as pagefind from 'pagefind';
import { buildData } from '../src/server/builds/build-data.ts';
import { buildSearchFiles, writeSearchFiles } from '../src/server/host/search-index.ts';
import { withoutTrailingSlashes } from '../src/lib/text.ts';
import { pageScriptsAfterPaint } from '../src/server/host/page-scripts.ts';
import { withScriptHash } from '../src/server/host/page-policy.ts';

const root = path.resolve(process.argv[2] ?? 'dist/client');
const searchDir = path.join(root, 'pagefind');
const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|webmanifest)$/;
const br = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (full === searchDir) continue;
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

// The best brotli (11): the files are few (hashed assets, cached for a year, and the site's own pages,
// whose first visit must fit the first round trip); pages with live data are compressed by the server.
const QUALITY = 11;

let count = 0;
let saved = 0;
async function compress(file: string) {
  const data = await readFile(file);
  if (data.length < 512) return;
  const params = { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length };
  const [brotli, gzipped] = await Promise.all([br(data, { params }), gz(data, { level: 9 })]);
  await Promise.all([writeFile(`${file}.br`, brotli), writeFile(`${file}.gz`, gzipped)]);
  count++;
  saved += data.length - brotli.length;
}

/** Runs `work` over every item, a few at a time per core (zlib's async calls use libuv's thread pool). */
async function each(items: string[], work: (item: string) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: os.availableParallelism() * 2 }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

// The search index is built by Pagefind's own process, beside the preloading and compressing below;
// its files are written (and its scripts compressed) once both are done.
const searchIndex = (async () => {
  const started = performance.now();
  const { tools } = await buildData();
  const files = await buildSearchFiles(tools);
  await pagefind.close();
  return { tools: tools.length, files, ms: Math.round(performance.now() - started) };
})();

const all: string[] = [];
for await (const file of files(root)) all.push(file);
const afterPaint = pageScriptsAfterPaint(root);
let preloads = 0;
/** The hashes of the scripts each page's loader wrote, by the path Astro's _headers.json names the page with. */
const hashes = new Map<string, string[]>();
const pagePath = (file: string) =>
  withoutTrailingSlashes(
    '/' +
      path
        .relative(root, file)
        .split(path.sep)
        .join('/')
        .replace(/(^|\/)index\.html$/, '')
        .replace(/\.html$/, ''),
  ) || '/';
await each(
  all.filter((f) => f.endsWith('.html')),
  async (f) => {
    const { html, added, hashes: written } = afterPaint(await readFile(f, 'utf8'));
    if (!written.length) return;
    await writeFile(f, html);
    hashes.set(pagePath(f), written);
    preloads += added;
  },
);
await allowLoaders(path.join(root, '..', '_headers.json'));

/** Adds each page's loader hash to its policy in Astro's per-page headers. */
async function allowLoaders(headersFile: string) {
  const entries = JSON.parse(await readFile(headersFile, 'utf8').catch(() => '[]')) as {
    pathname: string;
    headers: { key: string; value: string }[];
  }[];
  for (const entry of entries) {
    const written = hashes.get(withoutTrailingSlashes(entry.pathname) || '/');
    const csp = entry.headers.find((h) => h.key === 'Content-Security-Policy');
    if (written && csp) csp.value = written.reduce(withScriptHash, csp.value);
  }
  if (entries.length) await writeFile(headersFile, JSON.stringify(entries));
}
const queue: string[] = [];
for (const file of all) if ((await stat(file)).size >= 512) queue.push(file);
await each(queue, compress);
const search = await searchIndex;
await writeSearchFiles(search.files, searchDir);
const searchFiles: string[] = [];
for await (const file of files(searchDir)) if ((await stat(file)).size >= 512) searchFiles.push(file);
await each(searchFiles, compress);
console.log(`postbuild: search index of ${search.tools} tools, ${search.files.size} files, built in ${search.ms} ms`);
console.log(
  `postbuild: ${hashes.size} pages start their scripts after the first paint (${preloads} chunks preloaded then); precompressed ${count} files (brotli saves ${(saved / 1024).toFixed(0)} kB)`,
);
