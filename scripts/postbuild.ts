// After `astro build`: write .br and .gz beside every compressible file in dist/client, so the
// server sends them without compressing on each request.
import os from 'node:os';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'dist/client');
const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|webmanifest)$/;
const br = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

// Hashed assets (_astro/) are few, shared by every page and cached for a year: the best brotli (11).
// Pages are one per tool: quality 11 costs ~20 ms a page (minutes at 10,000 tools), quality 8 ~1 ms
// for ~9% more bytes (a few hundred per page).
const assets = path.join(root, '_astro') + path.sep;
const quality = (file: string) => (file.startsWith(assets) ? 11 : 8);

let count = 0;
let saved = 0;
async function compress(file: string) {
  const data = await readFile(file);
  if (data.length < 512) return;
  const params = { [constants.BROTLI_PARAM_QUALITY]: quality(file), [constants.BROTLI_PARAM_SIZE_HINT]: data.length };
  const [brotli, gzipped] = await Promise.all([br(data, { params }), gz(data, { level: 9 })]);
  await Promise.all([writeFile(`${file}.br`, brotli), writeFile(`${file}.gz`, gzipped)]);
  count++;
  saved += data.length - brotli.length;
}

// zlib's async calls run on libuv's thread pool: keep every core busy, a few files in flight each.
const queue: string[] = [];
for await (const file of files(root)) if ((await stat(file)).size >= 512) queue.push(file);
let next = 0;
await Promise.all(
  Array.from({ length: os.availableParallelism() * 2 }, async () => {
    while (next < queue.length) await compress(queue[next++]);
  }),
);
console.log(`postbuild: precompressed ${count} files (brotli saves ${(saved / 1024).toFixed(0)} kB)`);
