// `npm run bench [-- part]`: measurements of the built store, each beside the ceiling it chases.
// Parts: pages | lighthouse | static | publish | api | tracing | purchase | busy | scale | cluster (default: all, in that order); `report`
// only renders bench/results.md again.
// Writes bench/results.json and bench/results.md (a part run alone replaces only its own results).
// `pages --check` (used by `npm test`) only checks the budgets of an existing build's prebuilt pages
// (the browser tests check those of the pages the server renders from live data: tests/e2e/trust.spec.ts).
import os from 'node:os';
import path from 'node:path';
import { measurePages, printWeights } from './pages.ts';
import { exitWithUsageIfAsked } from '../lib/usage.ts';
import { unpinBench } from './load.ts';

exitWithUsageIfAsked(`
Usage: npm run bench [-- PART]
Measurements of the built store, each beside the ceiling it chases. PART: pages | lighthouse | static |
publish | api | tracing | purchase | busy | scale | cluster (default: all), or report (renders
bench/results.md again). 'pages --check' checks the page budgets of an existing build.
`);

const [part = 'all', ...flags] = process.argv.slice(2);

if (flags.includes('--check')) {
  const distDir = path.resolve(process.env.DIST_DIR ?? 'dist-e2e');
  const weights = measurePages(distDir);
  if (!weights.some((w) => w.page === '/blogs')) {
    console.error(`No build in ${distDir} (client/blogs/index.html is missing): build first.`);
    process.exit(1);
  }
  if (!printWeights(weights)) {
    console.error('A page is over its JavaScript budget, or a storefront page over its first round trip.');
    process.exit(1);
  }
  process.exit(0);
}

await import('./ts-resolve.ts');
const { PART_NAMES, loadResults, machine, saveResults } = await import('./report.ts');
type PartName = (typeof PART_NAMES)[number];
const { cleanup } = await import('./store.ts');
const { LOAD } = await import('./load.ts');

// `report` runs nothing: it renders bench/results.md again from results.json (after editing before-after.md).
const parts: readonly PartName[] = part === 'all' ? PART_NAMES : PART_NAMES.filter((p) => p === part);
if (!parts.length && part !== 'report') {
  console.error(`Unknown part "${part}". Parts: ${PART_NAMES.join(', ')} (or none for all).`);
  process.exit(2);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping what the bench started…`);
    void cleanup().then(() => process.exit(130));
  });
}

interface PartModule {
  run(): Promise<unknown>;
  render(data: never): import('./report.ts').Rendered;
  failed?(data: never): boolean;
}
const load = (name: PartName) => import(`./parts/${name}.ts`) as Promise<PartModule>;

const started = Date.now();
const results = loadResults() ?? {
  machine: machine(),
  load: LOAD,
  lastRun: { parts: [], seconds: 0, at: '' },
  parts: {},
};
let failed = false;
for (const name of parts) {
  console.log(`\n━━ ${name}`);
  const partStarted = Date.now();
  unpinBench();
  const loadAverage = os.loadavg();
  try {
    const data = await (await load(name)).run();
    results.parts[name] = {
      at: new Date().toISOString(),
      seconds: (Date.now() - partStarted) / 1000,
      loadAverage,
      machine: machine(),
      data,
    };
    const mod = await load(name);
    if (mod.failed?.(data as never)) failed = true;
  } catch (error) {
    failed = true;
    console.error(`${name} failed: ${(error as Error).stack ?? error}`);
  } finally {
    await cleanup();
  }
  console.log(`  (${name}: ${((Date.now() - partStarted) / 1000).toFixed(0)} s)`);
  if (interrupted) break;
}

if (parts.length) {
  results.machine = machine();
  results.load = LOAD;
  results.lastRun = { parts: [...parts], seconds: (Date.now() - started) / 1000, at: new Date().toISOString() };
}
const rendered: Partial<Record<PartName, import('./report.ts').Rendered>> = {};
for (const name of PART_NAMES) {
  const record = results.parts[name];
  if (record) rendered[name] = (await load(name)).render(record.data as never);
}
saveResults(results, rendered);
console.log(`\nWrote bench/results.md and bench/results.json (${Math.round((Date.now() - started) / 1000)} s).`);
process.exit(failed ? 1 : 0);
