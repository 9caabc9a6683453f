// The order path without HTTP: one-line orders placed and deleted through the services, with the outbox
// run after every fourth (as the bench's order stream gets it, ~4 orders to a run), on embedded stores of
// 2,000 tools opened in this one process. Each store is a checkout's server code (its own copy of every
// module) and optionally SQL run on its store first (an index dropped, a setting). The stores take turns in
// slices of 40 orders, so a machine that speeds up or slows down touches all of them alike (figures from
// separate runs on this shared machine differ by ±25%). Prints each store's median CPU per order.
// A tool for working on issue 30's goal 1; `npm run bench` does not run it.
//
//   node scripts/bench/order-path.ts [--slices N] STORE...
//   STORE: [checkout:]sql-file, or [checkout:]- for none; checkout: a worktree's root (default this one)
//   e.g. node scripts/bench/order-path.ts /tmp/before:- -      (the commit before against this one)
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { exitWithUsageIfAsked } from '../lib/usage.ts';
import { prepare } from './parts/busy.ts';

exitWithUsageIfAsked(`
Usage: node scripts/bench/order-path.ts [--slices N] STORE...
CPU per one-line order placed and deleted, in process (no HTTP), for each STORE, the stores taking turns.
STORE is [checkout:]sql-file or [checkout:]- (no SQL); checkout is another worktree's root.
`);

const args = process.argv.slice(2);
const slicesAt = args.indexOf('--slices');
const SLICES = slicesAt >= 0 ? Number(args.splice(slicesAt, 2)[1]) : 40;
const SLICE = 40;
const WARM = 300;
const specs = args.length ? args : ['-'];
const TEMPLATE = path.resolve('.data-bench-order-path');

if (!existsSync(TEMPLATE)) await prepare(TEMPLATE, undefined, 2000);

/** A store of `spec`: its own data directory (a copy of the template) and its checkout's services. */
async function open(spec: string) {
  const [root, sqlFile] = spec.includes(':') ? spec.split(':') : [path.resolve('.'), spec];
  const load = (file: string) => import(path.join(path.resolve(root), 'src/server', file));
  const modules = ['db/open.ts', 'db/migrate.ts', 'config.ts', 'app.ts', 'caching/changes.ts', 'http/rate-limit.ts'];
  const [{ openDb }, { migrate }, { loadConfig }, { createApp }, { memoryBus }, { memoryRateLimitStore }] =
    await Promise.all(modules.map(load));
  const { sandboxGateway } = await load('payments/sandbox.ts');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'order-path-'));
  cpSync(TEMPLATE, dataDir, { recursive: true });
  rmSync(path.join(dataDir, 'pg', 'ironcrest.lock'), { force: true });
  const db = await openDb({ dataDir });
  // Its checkout's own migrations, should they differ from this one's.
  await migrate(db);
  if (sqlFile !== '-') await db.exec(readFileSync(sqlFile, 'utf8'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    MAX_UNPAID_ORDERS: '100000',
    PUBLIC_FIREBASE_PROJECT_ID: 'demo-order-path',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
  });
  const { orders, checkout, outbox } = createApp({
    db,
    config,
    jwtSecret: new TextEncoder().encode(config.jwtSecret),
    identity: {},
    payments: sandboxGateway(db),
    images: {},
    rateLimits: memoryRateLimitStore(),
    changes: memoryBus(),
    now: () => new Date(),
  });
  const tools = (await db.query('SELECT id, minimum_order_quantity FROM tools ORDER BY seq LIMIT 101')).slice(1) as {
    id: string;
    minimum_order_quantity: number;
  }[];
  let n = 0;
  return {
    name: `${path.basename(path.resolve(root))}:${path.basename(sqlFile)}`,
    msPerOrder: [] as number[],
    async order() {
      const tool = tools[n % tools.length];
      const buyer = { email: `buyer-${n % 8}@bench.ironcrest.test`, name: 'Bench Buyer', role: 'user', uid: null };
      const cart = {
        items: [{ toolId: tool.id, quantity: tool.minimum_order_quantity }],
        address: 'Bench Street 1',
        phone: '01712345678',
      };
      await checkout.remove(buyer, await orders.placeOnce(buyer, cart));
      if (n++ % 4 === 3) await outbox.run();
    },
    async close() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const stores = [];
for (const spec of specs) stores.push(await open(spec));
for (const store of stores) for (let i = 0; i < WARM; i++) await store.order();
for (let slice = 0; slice < SLICES; slice++)
  for (const store of stores) {
    const before = process.cpuUsage();
    for (let i = 0; i < SLICE; i++) await store.order();
    const { user, system } = process.cpuUsage(before);
    store.msPerOrder.push((user + system) / 1000 / SLICE);
  }
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const base = median(stores[0].msPerOrder);
for (const store of stores) {
  const m = median(store.msPerOrder);
  console.log(
    `${store.name.padEnd(28)} ${m.toFixed(3)} ms of CPU per order (median of ${SLICES} slices; fastest ${Math.min(...store.msPerOrder).toFixed(3)}), ${((m / base - 1) * 100).toFixed(1)}% against the first`,
  );
}
for (const store of stores) await store.close();
process.exit(0);
