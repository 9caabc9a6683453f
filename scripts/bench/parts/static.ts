// Part 3: static throughput of our server against nginx serving the same dist-bench/client files,
// both asked for brotli like a browser, measured alternately in the same run.
import path from 'node:path';
import { best, BROWSER_HEADERS, hammer, http, LOAD, round, type LoadResult } from '../load.ts';
import { ensureNginx, startNginx } from '../nginx.ts';
import { toolPage } from '../pages.ts';
import type { Rendered } from '../report.ts';
import { DIST_DIR, ensureBenchBuild, memoryOf, PORTS, startStore } from '../store.ts';

interface Target {
  path: string;
  label: string;
  bytes: { ours: number; nginx?: number };
  ours: LoadResult;
  nginx?: LoadResult;
  ratio?: number;
}
export interface StaticData {
  nginx?: string;
  targets: Target[];
  memory?: { rssMiB: number; peakMiB: number };
}

const bodyBytes = async (url: string) => {
  const r = await http('GET', url, { headers: BROWSER_HEADERS });
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
  return Number(r.headers['content-length'] ?? Buffer.byteLength(r.body));
};

export async function run(): Promise<StaticData> {
  ensureBenchBuild();
  const clientDir = path.resolve(DIST_DIR, 'client');
  const tool = toolPage(clientDir);
  if (!tool) throw new Error('no prebuilt tool page in dist-bench');
  const nginxVersion = ensureNginx();
  if (!nginxVersion) console.log('  nginx is not installed (and cannot be here): measuring our server alone.');
  const store = await startStore({ name: 'static', port: PORTS.store });
  const nginx = nginxVersion ? await startNginx(clientDir, PORTS.nginx) : undefined;
  const targets: Target[] = [];
  for (const [label, p] of [
    ['home', '/'],
    ['tool page', tool.page],
  ]) {
    const ours: LoadResult[] = [];
    const theirs: LoadResult[] = [];
    for (let round = 0; round < 2; round++) {
      ours.push(await hammer(store.url + p, BROWSER_HEADERS, [store.pid]));
      if (nginx) theirs.push(await hammer(nginx.url + p, BROWSER_HEADERS, nginx.pids()));
    }
    const t: Target = {
      path: p,
      label,
      bytes: { ours: await bodyBytes(store.url + p), nginx: nginx ? await bodyBytes(nginx.url + p) : undefined },
      ours: best(ours),
      nginx: nginx ? best(theirs) : undefined,
    };
    if (t.nginx) t.ratio = round(t.ours.rps / t.nginx.rps, 2);
    console.log(
      `  ${label.padEnd(10)} ours ${t.ours.rps} rps p99 ${t.ours.p99} ms | nginx ${t.nginx?.rps ?? '—'} rps p99 ${t.nginx?.p99 ?? '—'} ms | ratio ${t.ratio ?? '—'}`,
    );
    targets.push(t);
  }
  const memory = await memoryOf(store.pid);
  return { nginx: nginxVersion, targets, memory };
}

export function render(data: StaticData): Rendered {
  const lines = [
    '## 3. Static throughput: our server vs nginx (same files, same run)',
    '',
    `nginx ${data.nginx ?? '(not available)'} with one worker, sendfile, gzip_static and brotli_static; our server is one Node process.`,
    `Both log each request to a file. Requests ask for \`accept-encoding: br, gzip\`; ${LOAD.connections} connections.`,
    "CPU/req is the server processes' user + system time per request, steadier than rps on a shared machine.",
    '',
    '| page | bytes (br) ours / nginx | ours rps | ours p99 | ours CPU/req | nginx rps | nginx p99 | nginx CPU/req | ours/nginx |',
    '|---|---|---|---|---|---|---|---|---|',
    ...data.targets.map(
      (t) =>
        `| ${t.label} (\`${t.path}\`) | ${t.bytes.ours} / ${t.bytes.nginx ?? '—'} | ${t.ours.rps} | ${t.ours.p99} ms | ${t.ours.cpuUsPerRequest ?? '—'} µs | ${t.nginx?.rps ?? '—'} | ${t.nginx ? `${t.nginx.p99} ms` : '—'} | ${t.nginx?.cpuUsPerRequest ?? '—'} µs | ${t.ratio ?? '—'} |`,
    ),
  ];
  if (data.memory)
    lines.push(
      '',
      `Our server's memory after this part: ${data.memory.rssMiB} MiB resident, ${data.memory.peakMiB} MiB peak.`,
    );
  return {
    summary: data.targets.map((t) => ({
      metric: `static ${t.label}: ours/nginx rps`,
      goal: '≥ 0.5',
      result:
        t.ratio === undefined ? `${t.ours.rps} rps (no nginx)` : `${t.ratio} (${t.ours.rps} vs ${t.nginx!.rps} rps)`,
      ok: t.ratio === undefined ? undefined : t.ratio >= 0.5,
    })),
    section: lines.join('\n'),
  };
}
