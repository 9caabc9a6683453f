// Part 3: static throughput of our server beside nginx serving the same dist-bench/client files, a bare
// node:http server answering the same bytes, and Astro's stock standalone server over the same site,
// all asked for brotli like a browser, measured alternately in the same run with wrk.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rawGet, sameHeaders, startBareLike } from '../bare.ts';
import { calibrationLine, ceilingRun, judge, type Calibration } from '../calibrate.ts';
import { best, BROWSER_HEADERS, hammer, http, LOAD, round, settle, withChildren, type LoadResult } from '../load.ts';
import { ensureNginx, startNginx } from '../nginx.ts';
import { toolPageOf } from '../pages.ts';
import type { Rendered } from '../report.ts';
import { ensureStandaloneBuild, startStandalone } from '../standalone.ts';
import { DIST_DIR, ensureBenchBuild, memoryOf, PORTS, startStore, TMP } from '../store.ts';

const SERVERS = ['ours', 'nginx', 'bare', 'astro'] as const;
type Server = (typeof SERVERS)[number];

interface Target {
  path: string;
  label: string;
  bytes: Partial<Record<Server, number>>;
  results: Partial<Record<Server, LoadResult>>;
}
export interface StaticData {
  nginx?: string;
  targets: Target[];
  calibration?: Calibration;
  memory?: { rssMiB: number; peakMiB: number };
}

const bodyBytes = async (url: string) => {
  const r = await http('GET', url, { headers: BROWSER_HEADERS });
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
  return Number(r.headers['content-length'] ?? Buffer.byteLength(r.body));
};

/**
 * The prebuilt site plus, as files, the pages ours renders from live data (home, a tool's page) in the
 * encodings ours sends: nginx serves the same bytes from disk.
 */
async function siteWithLivePages(storeUrl: string, paths: string[]): Promise<string> {
  const root = path.join(TMP, 'nginx-root');
  rmSync(root, { recursive: true, force: true });
  cpSync(path.resolve(DIST_DIR, 'client'), root, { recursive: true });
  for (const p of paths) {
    const file = path.join(root, p, 'index.html');
    mkdirSync(path.dirname(file), { recursive: true });
    for (const [suffix, encoding] of [
      ['', 'identity'],
      ['.br', 'br'],
      ['.gz', 'gzip'],
    ] as const) {
      const answer = await rawGet(storeUrl + p, { 'accept-encoding': encoding });
      if (answer.status !== 200) throw new Error(`${p} answered ${answer.status}`);
      writeFileSync(file + suffix, answer.body);
    }
  }
  return root;
}

export async function run(): Promise<StaticData> {
  ensureBenchBuild();
  ensureStandaloneBuild();
  const nginxVersion = ensureNginx();
  if (!nginxVersion)
    console.log('  nginx is not installed (apt-get install -y nginx libnginx-mod-http-brotli-static).');
  const store = await startStore({ name: 'static', port: PORTS.store });
  const pages: [string, string][] = [
    ['home', '/'],
    ['tool page', await toolPageOf(store.url)],
  ];
  const servers: Partial<Record<Server, { url: string; pids(): number[] }>> = {
    ours: { url: store.url, pids: () => [store.pid] },
  };
  // nginx and bare send the headers ours sends (security headers, the page's CSP, a request id), so
  // the three put the same bytes on the wire.
  const oursHeaders: Record<string, Record<string, string>> = {};
  for (const [, p] of pages) oursHeaders[p] = sameHeaders((await rawGet(store.url + p, BROWSER_HEADERS)).headers);
  if (nginxVersion)
    servers.nginx = await startNginx(
      await siteWithLivePages(
        store.url,
        pages.map(([, p]) => p),
      ),
      PORTS.nginx,
      oursHeaders,
    );
  const bare = await startBareLike(
    store.url,
    pages.map(([, p]) => p),
    BROWSER_HEADERS,
  );
  servers.bare = { url: bare.url, pids: () => [bare.pid] };
  const astro = await startStandalone(PORTS.standalone);
  servers.astro = { url: astro.url, pids: () => withChildren(astro.pid) };

  // The client's ceiling is measured in every round beside the servers (the machine's load moves).
  const ceiling = servers.nginx ?? servers.bare!;
  const ceilingRuns: LoadResult[] = [];
  const targets: Target[] = [];
  for (const name of SERVERS) {
    const server = servers[name];
    if (server)
      await settle(
        pages.map(([, p]) => server.url + p),
        BROWSER_HEADERS,
        server.pids(),
      );
  }
  // Rounds go over every page and server in turn, so a busy spell of the shared machine lands on one
  // round of each rather than on every round of one page.
  const rounds = new Map<string, LoadResult[]>();
  for (let i = 0; i < LOAD.rounds; i++) {
    for (const [, p] of pages) {
      for (const name of SERVERS) {
        const server = servers[name];
        if (!server) continue;
        const key = `${name} ${p}`;
        rounds.set(key, [...(rounds.get(key) ?? []), await hammer(server.url + p, BROWSER_HEADERS, server.pids())]);
      }
      ceilingRuns.push(await ceilingRun(`${ceiling.url}/__calibrate`, ceiling.pids()));
    }
  }
  for (const [label, p] of pages) {
    const t: Target = { path: p, label, bytes: {}, results: {} };
    for (const name of SERVERS) {
      const server = servers[name];
      if (!server) continue;
      t.results[name] = best(rounds.get(`${name} ${p}`)!);
      t.bytes[name] = await bodyBytes(server.url + p);
    }
    console.log(
      `  ${label.padEnd(10)} ` +
        SERVERS.map((n) => `${n} ${t.results[n]?.rps ?? '—'} rps p99 ${t.results[n]?.p99 ?? '—'} ms`).join(' | '),
    );
    targets.push(t);
  }
  const calibration = judge(
    servers.nginx ? 'nginx `return 200 "ok"`' : 'a bare node:http server answering 2 bytes',
    ceilingRuns,
    targets.map((t) => t.results.ours!.rps),
  );
  console.log(
    `  calibration: ${calibration.rps} rps, needed ${calibration.needed}: ${calibration.valid ? 'valid' : 'INVALID'}`,
  );
  const memory = await memoryOf(store.pid);
  return { nginx: nginxVersion, targets, calibration, memory };
}

const ratio = (t: Target, peer: Server) =>
  t.results[peer] ? round(t.results.ours!.rps / t.results[peer].rps, 2) : undefined;

export function render(data: StaticData): Rendered {
  const valid = data.calibration?.valid !== false;
  const cell = (r?: LoadResult) =>
    r ? `${r.rps} | ${r.p50} / ${r.p99} ms | ${r.cpuUsPerRequest ?? '—'} µs` : '— | — | —';
  const lines = [
    '## 3. Static throughput: ours, nginx, a bare node:http server and Astro standalone (same site, same run)',
    '',
    `nginx ${data.nginx ?? '(not available)'} with one worker, sendfile, gzip_static and brotli_static; bare is node:http answering`,
    "our server's bytes and headers from memory; Astro is the same site built with `@astrojs/node` in standalone mode",
    '(its static handler sends no precompressed variants, so it answers the uncompressed page). Ours and nginx log each request.',
    "nginx and bare send the headers ours sends for each page (the security headers, the page's own CSP with its script",
    'hashes, caching, a request id: nginx its `$request_id`, bare a fixed copy), so the three put the same bytes on the wire.',
    `wrk on core 1, every server pinned to core 0, \`accept-encoding: br, gzip\`, ${LOAD.connections} connections.`,
    "CPU/req is the server processes' user + system time per request, steadier than rps on a shared machine.",
    '',
  ];
  if (data.calibration) lines.push(calibrationLine(data.calibration), '');
  lines.push(
    '| page | server | bytes | rps | p50 / p99 | CPU/req |',
    '|---|---|---|---|---|---|',
    ...data.targets.flatMap((t) =>
      SERVERS.filter((n) => t.results[n]).map(
        (n) => `| ${t.label} (\`${t.path}\`) | ${n} | ${t.bytes[n] ?? '—'} | ${cell(t.results[n])} |`,
      ),
    ),
    '',
    '| page | ours/nginx | ours/bare | ours/Astro standalone |',
    '|---|---|---|---|',
    ...data.targets.map((t) =>
      valid
        ? `| ${t.label} | ${ratio(t, 'nginx') ?? '—'} | ${ratio(t, 'bare') ?? '—'} | ${ratio(t, 'astro') ?? '—'} |`
        : `| ${t.label} | invalid | invalid | invalid |`,
    ),
  );
  if (data.memory)
    lines.push(
      '',
      `Our server's memory after this part: ${data.memory.rssMiB} MiB resident, ${data.memory.peakMiB} MiB peak.`,
    );
  const summary = data.targets.flatMap((t) => {
    const nginx = ratio(t, 'nginx');
    const astro = ratio(t, 'astro');
    return [
      {
        metric: `static ${t.label}: ours/nginx rps`,
        goal: '≥ 0.5',
        result: !valid
          ? 'invalid (calibration)'
          : nginx === undefined
            ? `${t.results.ours!.rps} rps (no nginx)`
            : `${nginx} (${t.results.ours!.rps} vs ${t.results.nginx!.rps} rps)`,
        ok: !valid ? false : nginx === undefined ? undefined : nginx >= 0.5,
      },
      {
        metric: `static ${t.label}: ours/Astro standalone rps`,
        goal: '> 1',
        result: !valid ? 'invalid (calibration)' : `${astro} (${t.results.ours!.rps} vs ${t.results.astro?.rps} rps)`,
        ok: valid && astro !== undefined && astro > 1,
      },
    ];
  });
  return { summary, section: lines.join('\n') };
}
