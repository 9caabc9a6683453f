// Part: the cost of tracing (issue 29). The same public API reads from two stores on the same build, one
// with tracing off and one exporting every span over OTLP/HTTP to a collector in this process, measured
// alternately with wrk; the goal is ≥ 0.9 of the rate with tracing on. The collector counts what arrives,
// so the report says how many of the requests' spans were exported (the SDK drops what its queue cannot hold).
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
  on: LoadResult;
  ratio: number;
}
export interface TracingData {
  targets: Target[];
  /** Spans the collector received per request sent to the traced store. */
  exported: number;
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
  const off = await startStore({ name: 'tracing-off', port: PORTS.store });
  const on = await startStore({
    name: 'tracing-on',
    port: PORTS.storePg,
    env: {
      DATA_DIR: '.data-bench-tracing',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: 'ironcrest-bench',
    },
  });
  try {
    const tools = JSON.parse((await http('GET', `${off.url}/api/tools`)).body) as { _id: string }[];
    const paths = ['/api/tools', `/api/tools/${tools[0]._id}`, '/api/reviews?limit=5&pageNumber=0'];
    for (const store of [off, on])
      await settle(
        paths.map((p) => store.url + p),
        {},
        [store.pid],
      );
    const runs = { off: new Map<string, LoadResult[]>(), on: new Map<string, LoadResult[]>() };
    let sentToOn = 0;
    const spansBefore = otlp.spans();
    for (let i = 0; i < LOAD.rounds; i++) {
      for (const p of paths) {
        runs.off.set(p, [...(runs.off.get(p) ?? []), await hammer(off.url + p, {}, [off.pid])]);
        const traced = await hammer(on.url + p, {}, [on.pid]);
        sentToOn += traced.requests;
        runs.on.set(p, [...(runs.on.get(p) ?? []), traced]);
      }
      ceiling.runs.push(await ceilingRun(ceiling.url, ceiling.pids));
    }
    await new Promise((r) => setTimeout(r, 6000)); // the SDK's batches leave at least every 5 s
    // hammer's warm-up second is not counted in `requests`: count spans per measured request as a lower bound.
    const exported = round((otlp.spans() - spansBefore) / sentToOn, 2);
    const targets = paths.map((path) => {
      const t = { path, off: best(runs.off.get(path)!), on: best(runs.on.get(path)!), ratio: 0 };
      t.ratio = round(t.on.rps / t.off.rps, 2);
      console.log(
        `  ${path.padEnd(44)} off ${t.off.rps} rps p99 ${t.off.p99} ms | on ${t.on.rps} rps p99 ${t.on.p99} ms | ${t.ratio}`,
      );
      return t;
    });
    const calibration = judge(
      ceiling.target,
      ceiling.runs,
      targets.map((t) => t.off.rps),
    );
    console.log(
      `  spans exported per traced request: ${exported}; calibration ${calibration.valid ? 'valid' : 'INVALID'}`,
    );
    return { targets, exported, calibration };
  } finally {
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
        metric: 'API reads with tracing on / off (OTLP export of every span), worst of the public reads',
        goal: '≥ 0.9',
        result: valid
          ? `${worst} (${d.targets.map((t) => t.ratio).join(' / ')}; ${d.exported} spans exported per request)`
          : 'invalid calibration',
        ok: valid ? worst >= 0.9 : undefined,
      },
    ],
    section: [
      '## Tracing on and off (the same public reads, PGlite)',
      '',
      'Two stores on the same build, one exporting every span over OTLP/HTTP (`OTEL_EXPORTER_OTLP_ENDPOINT`, the',
      "default sampler, the SDK's batch processor) to a collector on the client core, the other with tracing off,",
      `measured alternately with wrk (${LOAD.connections} connections, best of ${LOAD.rounds} rounds each). The collector counted`,
      `${d.exported} spans per request sent to the traced store (a public read from memory is one span).`,
      '',
      calibrationLine(d.calibration),
      '',
      '| read | off rps | off p99 | on rps | on p99 | on / off |',
      '|---|---|---|---|---|---|',
      ...d.targets.map(
        (t) =>
          `| \`${t.path}\` | ${t.off.rps} | ${t.off.p99} ms | ${t.on.rps} | ${t.on.p99} ms | ${valid ? t.ratio : '—'} |`,
      ),
    ].join('\n'),
  };
}
