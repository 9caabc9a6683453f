// Part: the cost of tracing (issue 29). The same public API reads from three stores on the same build
// (tracing off; the default sampling, one request in twenty; every request traced), the traced ones
// exporting over OTLP/HTTP to a collector in this process, measured alternately with wrk; the goal is the
// default sampling at ≥ 0.9 of the untraced rate. The collector counts what arrives, so the report says
// how many of the requests' spans were exported (the SDK drops what its queue cannot hold).
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calibrationLine, ceilingRun, judge, startCeiling, type Calibration } from '../calibrate.ts';
import { best, CORES, hammer, http, LOAD, pin, round, settle, type LoadResult } from '../load.ts';
import type { Rendered } from '../report.ts';
import { ensureBenchBuild, PORTS, startStore } from '../store.ts';

interface Target {
  path: string;
  off: LoadResult;
  /** The store's default sampling: one request in twenty. */
  on: LoadResult;
  ratio: number;
  /** Every request traced (OTEL_TRACES_SAMPLER=parentbased_always_on). */
  all?: LoadResult;
  allRatio?: number;
}
export interface TracingData {
  targets: Target[];
  /** Spans the collector received per request sent to the traced stores: the default's, then every request's. */
  exported: number;
  exportedAll?: number;
  calibration: Calibration;
}

const SPAN_ID = Buffer.from('"spanId"');

/** An OTLP/HTTP endpoint that counts the spans it is sent (without parsing them). */
async function collector() {
  let spans = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(SPAN_ID); at >= 0; at = chunk.indexOf(SPAN_ID, at + 1)) spans++;
    });
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function run(): Promise<TracingData> {
  ensureBenchBuild();
  // The collector runs here: on the client's core, beside wrk, never on the server's.
  pin([process.pid], CORES.client);
  const otlp = await collector();
  const ceiling = await startCeiling();
  const traced = (name: string, port: number, sampler?: string) =>
    startStore({
      name,
      port,
      env: {
        DATA_DIR: `.data-bench-${name}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_SERVICE_NAME: 'ironcrest-bench',
        OTEL_TRACES_SAMPLER: sampler,
      },
    });
  const off = await startStore({
    name: 'tracing-off',
    port: PORTS.store,
    env: { DATA_DIR: '.data-bench-tracing-off' },
  });
  const on = await traced('tracing-on', PORTS.storePg);
  const all = await traced('tracing-all', PORTS.storePg + 1, 'parentbased_always_on');
  try {
    const tools = JSON.parse((await http('GET', `${off.url}/api/tools`)).body) as { _id: string }[];
    const paths = ['/api/tools', `/api/tools/${tools[0]._id}`, '/api/reviews?limit=5&pageNumber=0'];
    const stores = { off, on, all };
    for (const store of Object.values(stores))
      await settle(
        paths.map((p) => store.url + p),
        {},
        [store.pid],
      );
    const runs = {
      off: new Map<string, LoadResult[]>(),
      on: new Map<string, LoadResult[]>(),
      all: new Map<string, LoadResult[]>(),
    };
    /** Requests sent to the traced stores, and the spans the collector received while each was measured. */
    const sent = { on: 0, all: 0 };
    const received = { on: 0, all: 0 };
    for (let i = 0; i < LOAD.rounds; i++) {
      for (const p of paths) {
        for (const name of ['off', 'on', 'all'] as const) {
          const store = stores[name];
          const before = otlp.spans();
          const result = await hammer(store.url + p, {}, [store.pid]);
          runs[name].set(p, [...(runs[name].get(p) ?? []), result]);
          if (name === 'off') continue;
          await new Promise((r) => setTimeout(r, 5500)); // the SDK's batches leave at least every 5 s
          received[name] += otlp.spans() - before;
          sent[name] += result.requests;
        }
      }
      ceiling.runs.push(await ceilingRun(ceiling.url, ceiling.pids));
    }
    // hammer's warm-up second is not counted in `requests`: a little over the true share.
    const exported = round(received.on / sent.on, 3);
    const exportedAll = round(received.all / sent.all, 2);
    const targets = paths.map((path) => {
      const t: Target = {
        path,
        off: best(runs.off.get(path)!),
        on: best(runs.on.get(path)!),
        ratio: 0,
        all: best(runs.all.get(path)!),
      };
      t.ratio = round(t.on.rps / t.off.rps, 2);
      t.allRatio = round(t.all!.rps / t.off.rps, 2);
      console.log(
        `  ${path.padEnd(44)} off ${t.off.rps} rps | default ${t.on.rps} rps ${t.ratio} | every request ${t.all!.rps} rps ${t.allRatio}`,
      );
      return t;
    });
    const calibration = judge(
      ceiling.target,
      ceiling.runs,
      targets.map((t) => t.off.rps),
    );
    console.log(
      `  spans per request: default ${exported}, every request ${exportedAll}; calibration ${calibration.valid ? 'valid' : 'INVALID'}`,
    );
    return { targets, exported, exportedAll, calibration };
  } finally {
    await all.stop();
    await on.stop();
    await off.stop();
    await otlp.close();
    spawnSync('taskset', ['-a', '-p', '-c', '0,1', String(process.pid)], { stdio: 'ignore' });
  }
}

export const failed = (d: TracingData) => d.calibration.valid && d.targets.some((t) => t.ratio < 0.9);

export function render(d: TracingData): Rendered {
  const valid = d.calibration.valid;
  const worst = Math.min(...d.targets.map((t) => t.ratio));
  return {
    summary: [
      {
        metric:
          'API reads with tracing on / off (the default sampling: one request in twenty), worst of the public reads',
        goal: '≥ 0.9',
        result: valid
          ? `${worst} (${d.targets.map((t) => t.ratio).join(' / ')}; every request traced: ${d.targets.map((t) => t.allRatio ?? '—').join(' / ')})`
          : 'invalid calibration',
        ok: valid ? worst >= 0.9 : undefined,
      },
    ],
    section: [
      '## Tracing on and off (the same public reads, PGlite)',
      '',
      'Three stores on the same build: tracing off; tracing with the default sampling (one request in twenty is traced,',
      'decided before any span exists, so the others cost nothing); every request traced',
      "(`OTEL_TRACES_SAMPLER=parentbased_always_on`). The traced ones export over OTLP/HTTP (JSON, the SDK's batch",
      `processor) to a collector on the client core. Measured alternately with wrk (${LOAD.connections} connections, best of`,
      `${LOAD.rounds} rounds each). The collector counted ${d.exported} spans per request from the default store and`,
      `${d.exportedAll ?? '—'} from the other (a public read from memory is one span).`,
      '',
      calibrationLine(d.calibration),
      '',
      '| read | off rps | default rps | default / off | every request rps | every request / off |',
      '|---|---|---|---|---|---|',
      ...d.targets.map(
        (t) =>
          `| \`${t.path}\` | ${t.off.rps} | ${t.on.rps} | ${valid ? t.ratio : '—'} | ${t.all?.rps ?? '—'} | ${valid ? (t.allRatio ?? '—') : '—'} |`,
      ),
    ].join('\n'),
  };
}
