// Part 4: API throughput of the public reads on PGlite and on PostgreSQL, each against a bare
// node:http server answering the same JSON bytes, measured alternately in the same run.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { best, hammer, http, LOAD, round, type LoadResult } from '../load.ts';
import type { Rendered } from '../report.ts';
import { ensureBenchBuild, HOST, onCleanup, pgScratch, PORTS, startStore, stopChild, TMP } from '../store.ts';

interface Endpoint {
  path: string;
  bytes: number;
  ours: LoadResult;
  bare: LoadResult;
  ratio: number;
}
interface DbRun {
  db: string;
  endpoints: Endpoint[];
}
export interface ApiData {
  runs: DbRun[];
  caching: { etag: boolean; cacheControl: string; notModified: boolean };
  skipped?: string;
}

async function startBare(
  responses: Record<string, string>,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const file = path.join(TMP, 'bare-responses.json');
  writeFileSync(file, JSON.stringify(responses));
  const child = spawn(process.execPath, [path.resolve('scripts/bench/bare-server.ts'), String(PORTS.bare), file], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () => stopChild(child);
  onCleanup(stop);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.once('message', () => resolve());
  });
  child.removeAllListeners('exit');
  return { url: `http://${HOST}:${PORTS.bare}`, pid: child.pid!, stop };
}

async function measure(db: string, storeUrl: string, storePid: number): Promise<DbRun> {
  const tools = JSON.parse((await http('GET', `${storeUrl}/api/tools`)).body) as { _id: string }[];
  const paths = ['/api/tools', `/api/tools/${tools[0]._id}`, '/api/reviews?limit=5&pageNumber=0'];
  const responses: Record<string, string> = {};
  for (const p of paths) {
    const r = await http('GET', storeUrl + p);
    if (r.status !== 200) throw new Error(`${p} answered ${r.status}`);
    responses[p] = r.body;
  }
  const bare = await startBare(responses);
  const endpoints: Endpoint[] = [];
  for (const p of paths) {
    const ours: LoadResult[] = [];
    const theirs: LoadResult[] = [];
    for (let i = 0; i < 2; i++) {
      ours.push(await hammer(storeUrl + p, {}, [storePid]));
      theirs.push(await hammer(bare.url + p, {}, [bare.pid]));
    }
    const e = { path: p, bytes: Buffer.byteLength(responses[p]), ours: best(ours), bare: best(theirs), ratio: 0 };
    e.ratio = round(e.ours.rps / e.bare.rps, 2);
    console.log(
      `  ${db.padEnd(10)} ${p.padEnd(44)} ours ${e.ours.rps} rps p50 ${e.ours.p50} p99 ${e.ours.p99} ms | bare ${e.bare.rps} rps | ratio ${e.ratio}`,
    );
    endpoints.push(e);
  }
  await bare.stop();
  return { db, endpoints };
}

export async function run(): Promise<ApiData> {
  ensureBenchBuild();
  const runs: DbRun[] = [];
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
  runs.push(await measure('PGlite', pglite.url, pglite.pid));
  await pglite.stop();

  const scratch = await pgScratch('api');
  let skipped: string | undefined;
  if (scratch) {
    const store = await startStore({
      name: 'api-pg',
      port: PORTS.storePg,
      env: { DATABASE_URL: scratch.url, DATA_DIR: '.data-bench-pg' },
    });
    runs.push(await measure(`PostgreSQL ${scratch.version.split(' ')[0]}`, store.url, store.pid));
    await store.stop();
    await scratch.drop();
  } else skipped = 'PostgreSQL: no server reachable (set TEST_DATABASE_URL)';
  return { runs, caching, skipped };
}

export function render(data: ApiData): Rendered {
  const lines = [
    '## 4. API throughput: ours vs a bare node:http server with the same bytes',
    '',
    `${LOAD.connections} connections, no conditional requests (every answer is a full 200). CPU is the server's user + system time per request.`,
    `HTTP caching of public reads: ETag ${data.caching.etag ? 'yes' : 'no'}, \`Cache-Control: ${data.caching.cacheControl}\`, If-None-Match → ${data.caching.notModified ? '304' : 'no 304'}.`,
    '',
    '| database | endpoint | bytes | ours rps | p50 | p99 | CPU/req | bare rps | bare p99 | bare CPU/req | ours/bare |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of data.runs)
    for (const e of r.endpoints)
      lines.push(
        `| ${r.db} | \`${e.path}\` | ${e.bytes} | ${e.ours.rps} | ${e.ours.p50} ms | ${e.ours.p99} ms | ${e.ours.cpuUsPerRequest ?? '—'} µs | ${e.bare.rps} | ${e.bare.p99} ms | ${e.bare.cpuUsPerRequest ?? '—'} µs | ${e.ratio} |`,
      );
  if (data.skipped) lines.push('', data.skipped);
  return {
    summary: data.runs.flatMap((r) => {
      const worstRatio = Math.min(...r.endpoints.map((e) => e.ratio));
      const worstP99 = Math.max(...r.endpoints.map((e) => e.ours.p99));
      return [
        {
          metric: `API ${r.db.split(' ')[0]}: ours/bare rps (worst of 3)`,
          goal: '≥ 0.5',
          result: String(worstRatio),
          ok: worstRatio >= 0.5,
        },
        {
          metric: `API ${r.db.split(' ')[0]}: p99 (worst of 3)`,
          goal: '< 20 ms',
          result: `${worstP99} ms`,
          ok: worstP99 < 20,
        },
      ];
    }),
    section: lines.join('\n'),
  };
}
