// Part 4: API throughput of the public reads on PGlite and on PostgreSQL, each against a bare
// node:http server answering the same JSON bytes, measured alternately in the same run with wrk, and
// the server's resident memory at rest, under this load, and its peak since start.
import { startBareLike } from '../bare.ts';
import { calibrationLine, ceilingRun, judge, startCeiling, type Calibration, type Ceiling } from '../calibrate.ts';
import { best, hammer, http, LOAD, round, settle, type LoadResult } from '../load.ts';
import type { Rendered } from '../report.ts';
import { ensureBenchBuild, memoryOf, pgScratch, PORTS, startStore } from '../store.ts';

interface Endpoint {
  path: string;
  bytes: number;
  ours: LoadResult;
  bare: LoadResult;
  ratio: number;
}
interface Memory {
  /** Resident once ready, before any load. */
  restMiB: number;
  /** Highest resident while the reads were hammered. */
  loadMiB: number;
  /** The kernel's high-water mark since start (VmHWM): the start-up peak unless load went higher. */
  peakMiB: number;
}
interface DbRun {
  db: string;
  endpoints: Endpoint[];
  memory?: Memory;
}
export interface ApiData {
  runs: DbRun[];
  caching: { etag: boolean; cacheControl: string; notModified: boolean };
  calibration?: Calibration;
  skipped?: string;
}

/** Samples a process's resident memory every 200 ms until stopped; returns the highest seen, in MiB. */
function sampleResident(pid: number): () => number {
  let highest = 0;
  const timer = setInterval(() => {
    void memoryOf(pid).then((m) => (highest = Math.max(highest, m?.rssMiB ?? 0)));
  }, 200);
  return () => {
    clearInterval(timer);
    return highest;
  };
}

async function measure(db: string, storeUrl: string, storePid: number, ceiling: Ceiling): Promise<DbRun> {
  // PGlite's first queries make V8 compile its hottest WebAssembly with the optimising compiler in the
  // background for about a second (the start-up peak), so at rest is measured after that.
  await new Promise((r) => setTimeout(r, 3000));
  const rest = await memoryOf(storePid);
  const tools = JSON.parse((await http('GET', `${storeUrl}/api/tools`)).body) as { _id: string }[];
  const paths = ['/api/tools', `/api/tools/${tools[0]._id}`, '/api/reviews?limit=5&pageNumber=0'];
  const bare = await startBareLike(storeUrl, paths);
  const stopSampling = sampleResident(storePid);
  await settle(
    paths.map((p) => storeUrl + p),
    {},
    [storePid],
  );
  await settle(
    paths.map((p) => bare.url + p),
    {},
    [bare.pid],
  );
  // Rounds go over every endpoint in turn (a busy spell of the shared machine lands on one round of each),
  // ours and bare back to back, the client's ceiling once per round.
  const ours = new Map<string, LoadResult[]>();
  const theirs = new Map<string, LoadResult[]>();
  for (let i = 0; i < LOAD.rounds; i++) {
    for (const p of paths) {
      ours.set(p, [...(ours.get(p) ?? []), await hammer(storeUrl + p, {}, [storePid])]);
      theirs.set(p, [...(theirs.get(p) ?? []), await hammer(bare.url + p, {}, [bare.pid])]);
    }
    ceiling.runs.push(await ceilingRun(ceiling.url, ceiling.pids));
  }
  const endpoints: Endpoint[] = [];
  for (const p of paths) {
    const bytes = Buffer.byteLength((await http('GET', storeUrl + p)).body);
    const e = { path: p, bytes, ours: best(ours.get(p)!), bare: best(theirs.get(p)!), ratio: 0 };
    e.ratio = round(e.ours.rps / e.bare.rps, 2);
    console.log(
      `  ${db.padEnd(10)} ${p.padEnd(44)} ours ${e.ours.rps} rps p50 ${e.ours.p50} p99 ${e.ours.p99} ms ${e.ours.cpuUsPerRequest} µs | bare ${e.bare.rps} rps ${e.bare.cpuUsPerRequest} µs | ratio ${e.ratio}`,
    );
    endpoints.push(e);
  }
  const loadMiB = stopSampling();
  const after = await memoryOf(storePid);
  await bare.stop();
  const memory = rest && after ? { restMiB: rest.rssMiB, loadMiB, peakMiB: after.peakMiB } : undefined;
  if (memory)
    console.log(
      `  ${db}: resident ${memory.restMiB} MiB at rest, ${memory.loadMiB} MiB under load, peak ${memory.peakMiB} MiB`,
    );
  return { db, endpoints, memory };
}

/**
 * The part: PGlite, then PostgreSQL when a server is reachable, each beside the client's ceiling (nginx's
 * cheapest answer when nginx is installed, else a bare node:http server's 2 bytes: startCeiling).
 */
export async function run(): Promise<ApiData> {
  ensureBenchBuild();
  const runs: DbRun[] = [];
  const ceiling = await startCeiling();
  const pglite = await startStore({ name: 'api-pglite', port: PORTS.store });
  // HTTP caching of public reads: an ETag, a Cache-Control, and 304 for a matching If-None-Match.
  const first = await http('GET', `${pglite.url}/api/tools`);
  const etag = String(first.headers.etag ?? '');
  const again = await http('GET', `${pglite.url}/api/tools`, { headers: { 'if-none-match': etag } });
  const caching = {
    etag: Boolean(etag),
    cacheControl: String(first.headers['cache-control'] ?? ''),
    notModified: again.status === 304,
  };
  runs.push(await measure('PGlite', pglite.url, pglite.pid, ceiling));
  await pglite.stop();

  const scratch = await pgScratch('api');
  let skipped: string | undefined;
  if (scratch) {
    const store = await startStore({
      name: 'api-pg',
      port: PORTS.storePg,
      env: { DATABASE_URL: scratch.url, DATA_DIR: '.data-bench-pg' },
    });
    runs.push(await measure(`PostgreSQL ${scratch.version.split(' ')[0]}`, store.url, store.pid, ceiling));
    await store.stop();
    await scratch.drop();
  } else skipped = 'PostgreSQL: no server reachable (set TEST_DATABASE_URL)';

  const calibration = judge(
    ceiling.target,
    ceiling.runs,
    runs.flatMap((r) => r.endpoints.map((e) => e.ours.rps)),
  );
  console.log(
    `  calibration: ${calibration.rps} rps, needed ${calibration.needed}: ${calibration.valid ? 'valid' : 'INVALID'}`,
  );
  return { runs, caching, calibration, skipped };
}

export function render(data: ApiData): Rendered {
  const valid = data.calibration?.valid !== false;
  const lines = [
    '## 4. API throughput: ours vs a bare node:http server with the same bytes',
    '',
    `wrk on core 1, both servers pinned to core 0, ${LOAD.connections} connections, no conditional requests (every answer is a full 200).`,
    "The bare server answers each endpoint with our server's body and headers (security headers and CSP",
    'included, the request id as a fixed copy), so both put the same bytes on the wire.',
    "CPU/req is the server's user + system time per request.",
    `HTTP caching of public reads: ETag ${data.caching.etag ? 'yes' : 'no'}, \`Cache-Control: ${data.caching.cacheControl}\`, If-None-Match → ${data.caching.notModified ? '304' : 'no 304'}.`,
    '',
  ];
  if (data.calibration) lines.push(calibrationLine(data.calibration), '');
  lines.push(
    '| database | endpoint | bytes | ours rps | p50 / p99 | CPU/req | bare rps | bare p50 / p99 | bare CPU/req | ours/bare |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of data.runs)
    for (const e of r.endpoints)
      lines.push(
        `| ${r.db} | \`${e.path}\` | ${e.bytes} | ${e.ours.rps} | ${e.ours.p50} / ${e.ours.p99} ms | ${e.ours.cpuUsPerRequest ?? '—'} µs | ${e.bare.rps} | ${e.bare.p50} / ${e.bare.p99} ms | ${e.bare.cpuUsPerRequest ?? '—'} µs | ${valid ? e.ratio : 'invalid'} |`,
      );
  const withMemory = data.runs.filter((r) => r.memory);
  if (withMemory.length)
    lines.push(
      '',
      "Our server's resident memory (RSS): at rest once ready, the highest while these reads were hammered, and the peak since start (VmHWM).",
      '',
      '| database | at rest | under load | peak since start |',
      '|---|---|---|---|',
      ...withMemory.map(
        (r) => `| ${r.db} | ${r.memory!.restMiB} MiB | ${r.memory!.loadMiB} MiB | ${r.memory!.peakMiB} MiB |`,
      ),
    );
  if (data.skipped) lines.push('', data.skipped);
  return {
    summary: data.runs.flatMap((r) => {
      const worstRatio = Math.min(...r.endpoints.map((e) => e.ratio));
      const worstP99 = Math.max(...r.endpoints.map((e) => e.ours.p99));
      const name = r.db.split(' ')[0];
      return [
        {
          metric: `API ${name}: ours/bare rps (worst of 3)`,
          goal: '≥ 0.7',
          result: valid ? String(worstRatio) : 'invalid (calibration)',
          ok: valid && worstRatio >= 0.7,
        },
        {
          metric: `API ${name}: p99 at ${LOAD.connections} connections (worst of 3)`,
          goal: '< 5 ms',
          result: `${worstP99} ms`,
          ok: worstP99 < 5,
        },
        ...(r.memory
          ? [
              {
                metric: `API ${name}: resident memory at rest / under load / peak`,
                goal: 'reported',
                result: `${r.memory.restMiB} / ${r.memory.loadMiB} / ${r.memory.peakMiB} MiB`,
              },
            ]
          : []),
      ];
    }),
    section: lines.join('\n'),
  };
}
