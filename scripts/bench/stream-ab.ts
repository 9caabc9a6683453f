// The bench's order stream (8 buyers, 85 one-line orders/s placed and deleted) against two stores of 2,000
// tools started side by side: A, another checkout's server (or this one), and B, this checkout's. Both run
// throughout, pinned to the server core; the stream goes to each in turn for a window, and each window gives
// the store's CPU per order. Alternating windows of live processes compare what separate runs cannot: on this
// shared machine the same store costs ±25% from one minute to the next, and A against A comes out within
// ±7% (bench/before-after.md, 2026-12-06). A tool for working on issue 30's goal 1; `npm run bench` does not
// run it.
//
//   node scripts/bench/stream-ab.ts [--windows N] [--seconds S] [--read PATH] [--first N] [--a-flags "…"] [--b-flags "…"] CHECKOUT_A
//   --a-flags / --b-flags: node options of that store's process (V8 flags too), e.g. "--no-liftoff"
//   --read PATH: a reader asks for PATH (accepting brotli and gzip, as the busy part) ~500 times a second through each window, so a page that shows
//   the ordered tools' stock is made again after each order, as while the busy part reads it; its cost counts.
//   --first N: orders go to the catalogue's first N tools (those of `/tools`, 24 to a page), not to the 100
//   after the first, as in the busy part: a sale of the tools on the catalogue's first page.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import path from 'node:path';
import { exitWithUsageIfAsked } from '../lib/usage.ts';
import { cpuMs, http, pin, CORES } from './load.ts';
import { orderStream, prepare, STREAM_ENV } from './parts/busy.ts';
import { accessToken, idToken, pool } from './parts/purchase.ts';
import { benchEnv, cleanup, ensureBenchBuild, onCleanup, startBenchEmulator, stopChild, TMP } from './store.ts';

exitWithUsageIfAsked(`
Usage: node scripts/bench/stream-ab.ts [--windows N] [--seconds S] [--read PATH] [--first N] [--a-flags "…"] [--b-flags "…"] CHECKOUT_A
The order stream against store A (CHECKOUT_A's server, built there with DATA_DIR=.data-bench
DIST_DIR=dist-bench) and store B (this checkout's), in turn, window by window: each one's CPU per order.
`);

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const windows = Number(option('--windows', '6'));
const seconds = Number(option('--seconds', '10'));
const flags = [option('--a-flags', ''), option('--b-flags', '')];
const readPath = option('--read', '');
const first = Number(option('--first', '0'));
if (!args[0]) {
  console.error('Name checkout A (a worktree of the commit to compare with; "." for this one): see --help');
  process.exit(2);
}
const roots = [path.resolve(args[0]), path.resolve('.')];
const RATE = 85;
const PORT = 4550;

ensureBenchBuild();
await startBenchEmulator();
pin([process.pid], CORES.client);
const emails = Array.from({ length: 8 }, (_, i) => `busy-${i}@bench.ironcrest.test`);
const firebaseTokens = await pool(emails, 4, (email) => idToken(email, true));

async function start(i: number) {
  const root = roots[i];
  const dataDir = `.data-bench-stream-ab-${i}`;
  await prepare(dataDir, undefined, 2000);
  const log = openSync(path.join(TMP, `stream-ab-${i}.log`), 'w');
  const child = spawn(
    process.execPath,
    [...flags[i].split(' ').filter(Boolean), path.join(root, 'src/server/main.ts')],
    {
      env: benchEnv({
        PORT: String(PORT + i),
        DATA_DIR: dataDir,
        DIST_DIR: path.join(root, 'dist-bench'),
        ...STREAM_ENV,
      }),
      stdio: ['ignore', log, log, 'ipc'],
    },
  );
  onCleanup(() => stopChild(child));
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message) => message === 'ready' && resolve());
    child.once('exit', (code) =>
      reject(new Error(`store ${'AB'[i]} exited with ${code} (bench/tmp/stream-ab-${i}.log)`)),
    );
  });
  pin([child.pid!], CORES.server);
  const url = `http://127.0.0.1:${PORT + i}`;
  const buyers = await pool(emails, 4, (email, k) => accessToken(url, email, firebaseTokens[k], `127.0.0.${30 + k}`));
  const catalogue = JSON.parse((await http('GET', `${url}/api/tools`)).body) as {
    _id: string;
    minimumOrderQuantity: number;
  }[];
  const name = `${'AB'[i]} ${path.basename(root)}${flags[i] ? ` ${flags[i]}` : ''}`;
  return {
    name,
    url,
    pid: child.pid!,
    buyers,
    tools: first ? catalogue.slice(0, first) : catalogue.slice(1, 101),
    msPerOrder: [] as number[],
  };
}

/** One client asking for `url` every 2 ms until stopped. */
function reads(url: string) {
  let running = true;
  const loop = (async () => {
    while (running) {
      await http('GET', url, { headers: { 'accept-encoding': 'br, gzip' } });
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

const stores = [await start(0), await start(1)];
for (let w = 0; w < windows; w++) {
  for (const store of stores) {
    const stream = orderStream(store.url, store.buyers, store.tools, RATE);
    const reader = readPath ? reads(store.url + readPath) : undefined;
    await new Promise((r) => setTimeout(r, 2000));
    const [cpu, placed] = [cpuMs([store.pid]), stream.placed()];
    await new Promise((r) => setTimeout(r, seconds * 1000));
    store.msPerOrder.push((cpuMs([store.pid]) - cpu) / (stream.placed() - placed));
    const { errors, lastError } = await stream.stop();
    await reader?.stop();
    if (errors) console.log(`  ${store.name}: ${errors} orders failed (last: ${lastError})`);
  }
  console.log(stores.map((s) => `${s.name}: ${s.msPerOrder.at(-1)!.toFixed(2)}`).join('   ') + ' ms of CPU per order');
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const [a, b] = stores.map((s) => mean(s.msPerOrder));
console.log(
  `mean: A ${a.toFixed(2)}, B ${b.toFixed(2)} ms of CPU per order placed and deleted; B/A ${(b / a).toFixed(3)}`,
);
await cleanup();
process.exit(0);
