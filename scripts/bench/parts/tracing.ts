// Part: the cost of tracing (issue 29). The same public API reads from four stores on the same build:
// tracing off, twice (the second is the instrument's own check: it must come out at 1), the default
// sampling (one request in twenty), and every request traced; the traced ones export over OTLP/HTTP to a
// collector in this process. The four are loaded at the same time, sharing the server core, so each round
// compares their costs under the same machine speed; the goal is the default sampling at ≥ 0.9 of the
// untraced rate. The stores are started four times, each variant taking each slot (port, data directory,
// start order) once, so a slot that runs slower weighs on all of them alike. The collector counts what arrives from each store, so the report says how many of the
// requests' spans were exported (the SDK drops what its queue cannot hold).
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calibrationLine, ceilingRun, judge, startCeiling, type Calibration } from '../calibrate.ts';
import { CORES, hammerTogether, http, LOAD, median, pin, round, settle, type LoadResult } from '../load.ts';
import type { Rendered } from '../report.ts';
import { ensureBenchBuild, pgScratch, PORTS, startStore, type PgScratch, type Store } from '../store.ts';

const STORES = ['off', 'twin', 'on', 'all'] as const;
type StoreName = (typeof STORES)[number];

interface Target {
  path: string;
  /** Median rate of each store over the rounds (each with a quarter of the core). */
  rps: Record<StoreName, number>;
  /**
   * Medians of the rounds' ratios: the twin's to the first untraced store (the instrument's noise), then the
   * default's and every request's to the mean of the two untraced stores.
   */
  twinRatio: number;
  ratio: number;
  allRatio: number;
  /** The rounds' ratios of the default sampling, to show their spread. */
  ratios: number[];
  /**
   * The same comparison by CPU time per request (the untraced stores' mean over the default's, from /proc):
   * what each request costs, whatever share of the core its store got.
   */
  cpuRatio?: number;
}
export interface TracingRun {
  /** The stores' database (absent in runs recorded before PostgreSQL was measured too: PGlite). */
  db?: string;
  targets: Target[];
  rounds: number;
  seconds: number;
  /** Spans the collector received per request sent to the traced stores: the default's, then every request's. */
  exported: number;
  exportedAll?: number;
  calibration: Calibration;
}
/** PGlite's run, and the same four stores on PostgreSQL (traced ones with the pg instrumentation). */
export interface TracingData extends TracingRun {
  postgres?: TracingRun;
  skipped?: string;
}

/**
 * Rounds per read. This machine's speed flips between levels for seconds at a time (a bare node:http server
 * measured 27,000 and 47,000 rps in consecutive 5 s rounds): stores measured one after another compared
 * those levels, not their costs, and came out anywhere from 0.84 to 1.05.
 */
const ROUNDS_PER_BLOCK = Number(process.env.BENCH_TRACING_ROUNDS_PER_BLOCK ?? 4);
/**
 * Unmeasured load on each read of each store after a start, the four stores together (each gets a quarter of
 * the core). A traced store runs code the others never run (the SDK's), so its JIT needs longer to reach its
 * steady state: with the usual 3 s, the first round after a start kept 0.81-0.88 of the untraced rate and the
 * later ones 0.90-1.0 (bench/before-after.md, 2026-11-29 morning). A shop's server runs for hours.
 */
const SETTLE_SECONDS = 8;
/** The four slots a store can take: its port, data directory (or PostgreSQL schema) and place in the start order. */
const SLOT_PORTS = [PORTS.store, PORTS.storePg, PORTS.storePg + 1, PORTS.storePg + 2];
const SECONDS = 4;
const GOAL = 0.9;
const SPAN_ID = Buffer.from('"spanId"');
const SERVICE = (name: StoreName) => `ironcrest-bench-${name}`;

/** An OTLP/HTTP endpoint that counts the spans each store sends it (without parsing them). */
async function collector() {
  const spans = { on: 0, all: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let count = 0;
      for (let at = body.indexOf(SPAN_ID); at >= 0; at = body.indexOf(SPAN_ID, at + 1)) count++;
      spans[body.includes(SERVICE('all')) ? 'all' : 'on'] += count;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function run(): Promise<TracingData> {
  ensureBenchBuild();
  const ceiling = await startCeiling();
  const pglite = await measure('PGlite', async () => ({}), { ...ceiling, runs: [] });
  // Each slot gets a scratch schema of its own (kept across its blocks, as a data directory is), dropped afterwards.
  const scratches = new Map<number, PgScratch>();
  const schemaFor = async (slot: number): Promise<Record<string, string>> => {
    if (!scratches.has(slot)) {
      const scratch = await pgScratch(`tracing_slot${slot}`);
      if (!scratch) return {};
      scratches.set(slot, scratch);
    }
    return { DATABASE_URL: scratches.get(slot)!.url };
  };
  const probe = await pgScratch('tracing_probe');
  if (!probe) return { ...pglite, skipped: 'PostgreSQL: no server reachable (set TEST_DATABASE_URL)' };
  const version = probe.version.split(' ')[0];
  await probe.drop();
  try {
    const postgres = await measure(`PostgreSQL ${version}`, schemaFor, {
      ...ceiling,
      runs: [],
    });
    return { ...pglite, postgres };
  } finally {
    for (const scratch of scratches.values()) await scratch.drop();
  }
}

/** The four stores on one database, loaded together round after round. */
async function measure(
  db: string,
  dbEnv: (slot: number) => Promise<Record<string, string>>,
  ceiling: Awaited<ReturnType<typeof startCeiling>>,
): Promise<TracingRun> {
  console.log(`  ${db}:`);
  // The collector runs here: on the client's core, beside wrk, never on the server's.
  pin([process.pid], CORES.client);
  const otlp = await collector();
  const start = async (name: StoreName, slot: number): Promise<Store> =>
    startStore({
      name: `tracing-${name}`,
      port: SLOT_PORTS[slot],
      env: {
        DATA_DIR: `.data-bench-tracing-slot${slot}`,
        ...(await dbEnv(slot)),
        ...(name === 'on' || name === 'all'
          ? {
              OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
              OTEL_SERVICE_NAME: SERVICE(name),
              OTEL_TRACES_SAMPLER: name === 'all' ? 'parentbased_always_on' : undefined,
            }
          : {}),
      },
    });
  const paths = ['/api/tools', '/api/tools/{id}', '/api/reviews?limit=5&pageNumber=0'];
  const runs = new Map<string, Record<StoreName, LoadResult>[]>(paths.map((p) => [p, []]));
  const sent = { on: 0, all: 0 };
  const totals: number[] = [];
  try {
    // Block b puts variant v in slot (v + b) mod 4: each variant runs in each slot (its port, data
    // directory and start order) for the same number of rounds, so a slot that runs slower than the others
    // (one did, traced or not, late in a run) weighs on every variant alike instead of on one.
    for (let block = 0; block < STORES.length; block++) {
      const stores = {} as Record<StoreName, Store>;
      const slotOf = (v: number) => (v + block) % STORES.length;
      for (const slot of STORES.keys()) {
        const v = STORES.findIndex((_, at) => slotOf(at) === slot);
        stores[STORES[v]] = await start(STORES[v], slot);
      }
      try {
        // Each store's own first tool (its data directory may have been seeded apart from the others').
        const urls = {} as Record<StoreName, string[]>;
        for (const name of STORES) {
          const tools = JSON.parse((await http('GET', `${stores[name].url}/api/tools`)).body) as { _id: string }[];
          urls[name] = paths.map((p) => stores[name].url + p.replace('{id}', tools[0]._id));
        }
        await Promise.all(STORES.map((name) => settle(urls[name], {}, [stores[name].pid], SETTLE_SECONDS)));
        for (let i = 0; i < ROUNDS_PER_BLOCK; i++) {
          for (const [at, p] of paths.entries()) {
            const results = await hammerTogether(
              STORES.map((name) => ({ url: urls[name][at], pids: [stores[name].pid] })),
              SECONDS,
            );
            const round = Object.fromEntries(STORES.map((name, n) => [name, results[n]])) as Record<
              StoreName,
              LoadResult
            >;
            runs.get(p)!.push(round);
            sent.on += round.on.requests;
            sent.all += round.all.requests;
            totals.push(results.reduce((sum, r) => sum + r.rps, 0));
          }
          ceiling.runs.push(await ceilingRun(ceiling.url, ceiling.pids));
        }
        await new Promise((r) => setTimeout(r, 5500)); // the SDK's batches leave at least every 5 s
      } finally {
        for (const store of Object.values(stores)) await store.stop();
      }
    }
    // hammer's warm-up second is not counted in `requests`: a little over the true share.
    const exported = round(otlp.spans.on / sent.on, 3);
    const exportedAll = round(otlp.spans.all / sent.all, 2);
    const targets = paths.map((path) => {
      const rounds = runs.get(path)!;
      // Both untraced stores measure the untraced rate: their mean is the base; their ratio, the instrument's noise.
      const ratiosOf = (name: StoreName) => rounds.map((r) => r[name].rps / ((r.off.rps + r.twin.rps) / 2));
      const t: Target = {
        path,
        rps: Object.fromEntries(STORES.map((name) => [name, median(rounds.map((r) => r[name].rps))])) as Record<
          StoreName,
          number
        >,
        twinRatio: round(median(rounds.map((r) => r.twin.rps / r.off.rps)), 2),
        ratio: round(median(ratiosOf('on')), 2),
        allRatio: round(median(ratiosOf('all')), 2),
        ratios: ratiosOf('on').map((r) => round(r, 2)),
        cpuRatio: round(
          median(
            rounds.map(
              (r) => ((r.off.cpuUsPerRequest ?? 0) + (r.twin.cpuUsPerRequest ?? 0)) / 2 / (r.on.cpuUsPerRequest ?? 1),
            ),
          ),
          2,
        ),
      };
      console.log(
        `  ${path.padEnd(44)} untraced twin ${t.twinRatio} | default ${t.ratio} (rounds ${t.ratios.join(' ')}) | by CPU ${t.cpuRatio} | every request ${t.allRatio}`,
      );
      return t;
    });
    // wrk's four processes together must reach twice the four stores' combined rate.
    const calibration = judge(ceiling.target, ceiling.runs, totals);
    console.log(
      `  spans per request: default ${exported}, every request ${exportedAll}; calibration ${calibration.valid ? 'valid' : 'INVALID'}`,
    );
    return {
      db,
      targets,
      rounds: ROUNDS_PER_BLOCK * STORES.length,
      seconds: SECONDS,
      exported,
      exportedAll,
      calibration,
    };
  } finally {
    await otlp.close();
    spawnSync('taskset', ['-a', '-p', '-c', '0,1', String(process.pid)], { stdio: 'ignore' });
  }
}

/**
 * The goal met (true), missed (false) or not decided: the two untraced stores differ by the instrument's
 * noise (processes of the same build differ a few percent from start to stop), so a ratio is judged only
 * when it clears 0.9 by more than that.
 */
function verdict(d: TracingRun): boolean | undefined {
  if (!d.calibration.valid) return undefined;
  const noise = Math.max(...d.targets.map((t) => Math.abs(t.twinRatio - 1)));
  const worst = Math.min(...d.targets.map((t) => t.ratio));
  return worst >= GOAL + noise ? true : worst < GOAL - noise ? false : undefined;
}

const runsOf = (d: TracingData): TracingRun[] => [d, ...(d.postgres ? [d.postgres] : [])];

export const failed = (d: TracingData) => runsOf(d).some((r) => verdict(r) === false);

function summaryRow(d: TracingRun) {
  const ok = d.calibration.valid;
  const worst = Math.min(...d.targets.map((t) => t.ratio));
  return {
    metric: `API reads with tracing on / off, ${d.db ?? 'PGlite'} (the default sampling: one request in twenty), worst of the public reads`,
    goal: `≥ ${GOAL}`,
    result: ok
      ? `${worst} (${d.targets.map((t) => t.ratio).join(' / ')}; every request traced: ${d.targets.map((t) => t.allRatio).join(' / ')}; the untraced twin, the instrument's noise: ${d.targets.map((t) => t.twinRatio).join(' / ')})`
      : 'invalid calibration',
    ok: verdict(d),
  };
}

function table(d: TracingRun): string[] {
  const ok = d.calibration.valid;
  return [
    `### ${d.db ?? 'PGlite'}`,
    '',
    `The collector counted ${d.exported} spans per request from the default store and ${d.exportedAll ?? '—'} from the other (a public read from memory is one span).`,
    '',
    calibrationLine(d.calibration),
    '',
    '| read | untraced rps | twin / untraced | default rps | default / untraced (rounds) | default, by CPU per request | every request rps | every request / untraced |',
    '|---|---|---|---|---|---|---|---|',
    ...d.targets.map(
      (t) =>
        `| \`${t.path}\` | ${t.rps.off} | ${t.twinRatio} | ${t.rps.on} | ${ok ? `${t.ratio} (${t.ratios.join(', ')})` : '—'} | ${t.cpuRatio ?? '—'} | ${t.rps.all} | ${ok ? t.allRatio : '—'} |`,
    ),
    '',
  ];
}

export function render(d: TracingData): Rendered {
  return {
    summary: runsOf(d).map(summaryRow),
    section: [
      '## Tracing on and off (the same public reads, on PGlite and on PostgreSQL)',
      '',
      'Four stores on the same build: tracing off; tracing off again (the untraced twin: how far it comes out from 1',
      `is the instrument's noise, and a ratio is judged only when it clears ${GOAL} by more); tracing with the default sampling (one request in twenty is traced, decided before`,
      'any span exists, so the others cost nothing); every request traced (`OTEL_TRACES_SAMPLER=parentbased_always_on`).',
      "The traced ones export over OTLP/HTTP (JSON, the SDK's batch processor) to a collector on the client core;",
      'on PostgreSQL each store has a schema of its own, and the traced ones load the pg instrumentation.',
      `The four are loaded at the same time, each by its own wrk (${LOAD.connections} connections), sharing the server`,
      `core: ${d.rounds} rounds of ${d.seconds} s per read, each ratio the median of the rounds' ratios to the mean of the`,
      "two untraced stores. This machine's speed flips between levels for seconds at a time, so stores measured one",
      'after another compared those levels; measured together, they share them. The four are started four times, each',
      `variant taking each slot (port, data directory or schema, place in the start order) once for ${d.rounds / 4} rounds: one`,
      'slot ran slower late in a run whatever it ran, which a fixed assignment had charged to the variant in it.',
      'The CPU column compares CPU time per request (from /proc), whatever share of the core each store got.',
      `After each start, every store gets ${SETTLE_SECONDS} s of unmeasured load on each read (the four together), so each JIT's`,
      "steady state is compared: a traced store also compiles the SDK's code, and right after a start it is slower.",
      '',
      ...runsOf(d).flatMap(table),
      ...(d.skipped ? [d.skipped] : []),
    ].join('\n'),
  };
}
