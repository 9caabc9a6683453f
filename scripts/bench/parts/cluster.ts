// Part 7: throughput of 1, 2 and 3 store servers on one PostgreSQL database behind nginx terminating
// TLS with the shipped deploy/nginx.conf (the cluster test's harness starts nginx), loaded by wrk.
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { makeCertificate, skipReason, sql, startNginx } from '../../../tests/cluster/cluster.ts';
import { cpuMs, http, LOAD, round, withChildren } from '../load.ts';
import type { Rendered } from '../report.ts';
import { ensureBenchBuild, HOST, onCleanup, PORTS, startStore, stopChild, type Store } from '../store.ts';

const WRK = '/usr/bin/wrk';
const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
const SITE = `https://localhost:${PORTS.cluster}`;
const SERVER_PORTS = [1, 2, 3].map((i) => PORTS.cluster + i);
const METRICS_TOKEN = randomBytes(16).toString('hex');
const PATHS = ['/api/tools', '/'];

interface ServerShare {
  requests: number;
  cpuUsPerRequest?: number;
}
interface Measured {
  servers: number;
  path: string;
  bytes: number;
  encoding?: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  perServer: ServerShare[];
  /** All servers' CPU over all requests, and nginx's (TLS, proxying). */
  serversCpuUsPerRequest: number;
  nginxCpuUsPerRequest: number;
  /** Share of both cores busy during the measured run (everything on the machine). */
  machineBusy: number;
}
export interface ClusterData {
  cores?: number;
  nginx?: string;
  postgres?: string;
  runs: Measured[];
  skipped?: string;
}

/** Time in ms from a wrk figure such as 812.00us, 1.23ms or 1.01s. */
function wrkMs(figure: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(figure.trim());
  if (!m) throw new Error(`unexpected wrk time "${figure}"`);
  return round(Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'], 2);
}

function wrk(url: string, seconds: number): Promise<{ requests: number; p50: number; p99: number; errors: number }> {
  const args = [
    '-t1',
    `-c${LOAD.connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '--latency',
    '-H',
    'accept-encoding: br',
    url,
  ];
  return new Promise((resolve, reject) =>
    execFile(WRK, args, { timeout: (seconds + 30) * 1000 }, (error, out) => {
      if (error) return reject(new Error(`wrk failed: ${error.message}`));
      const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
      const latency = (p: string) => wrkMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? 'x');
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const errors = non2xx + (socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0);
      resolve({ requests, p50: latency('50'), p99: latency('99'), errors });
    }),
  );
}

/** Requests a server answered so far (its http_requests_total, scrapes of /metrics left out). */
async function served(port: number): Promise<number> {
  const r = await http('GET', `http://${HOST}:${port}/metrics`, { token: METRICS_TOKEN });
  if (r.status !== 200) throw new Error(`/metrics on ${port} answered ${r.status}`);
  let total = 0;
  for (const line of r.body.split('\n'))
    if (line.startsWith('http_requests_total{') && !line.includes('route="/metrics"'))
      total += Number(line.split(' ').pop());
  return total;
}

/** Busy and total jiffies of the whole machine (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = fields.reduce((a, n) => a + n, 0);
  return { busy: total - fields[3] - fields[4], total }; // idle, iowait
}

/** One GET through nginx over TLS, as wrk sends it: the answer's status, encoding and body size. */
function probe(ca: Buffer, pathname: string): Promise<{ status: number; encoding?: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: HOST,
        port: PORTS.cluster,
        path: pathname,
        ca,
        servername: 'localhost',
        headers: { host: `localhost:${PORTS.cluster}`, 'accept-encoding': 'br' },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], bytes }));
      },
    );
    req.on('error', reject);
  });
}

async function measure(
  count: number,
  stores: Store[],
  nginxPid: number,
  ca: Buffer,
  pathname: string,
): Promise<Measured> {
  const answer = await probe(ca, pathname);
  // Pages are precompressed; API JSON goes out as is (small, and different on every write).
  if (answer.status !== 200 || (pathname === '/' && answer.encoding !== 'br'))
    throw new Error(`${pathname} through nginx answered ${answer.status} (${answer.encoding ?? 'no encoding'})`);
  const url = `${SITE}${pathname}`;
  await wrk(url, LOAD.warmupSeconds);
  const used = stores.slice(0, count);
  const before = {
    served: await Promise.all(SERVER_PORTS.slice(0, count).map(served)),
    cpu: used.map((s) => cpuMs([s.pid])),
    nginx: cpuMs(withChildren(nginxPid)),
    machine: machineTicks(),
  };
  const r = await wrk(url, LOAD.seconds);
  const machine = machineTicks();
  const cpu = used.map((s, i) => cpuMs([s.pid]) - before.cpu[i]);
  const nginxCpu = cpuMs(withChildren(nginxPid)) - before.nginx;
  const counts = (await Promise.all(SERVER_PORTS.slice(0, count).map(served))).map((n, i) => n - before.served[i]);
  const us = (ms: number, n: number) => (n ? Math.round((ms * 1000) / n) : 0);
  const m: Measured = {
    servers: count,
    path: pathname,
    bytes: answer.bytes,
    encoding: answer.encoding,
    rps: Math.round(r.requests / LOAD.seconds),
    p50: r.p50,
    p99: r.p99,
    requests: r.requests,
    errors: r.errors,
    perServer: counts.map((n, i) => ({ requests: n, cpuUsPerRequest: n ? us(cpu[i], n) : undefined })),
    serversCpuUsPerRequest: us(
      cpu.reduce((a, n) => a + n, 0),
      r.requests,
    ),
    nginxCpuUsPerRequest: us(nginxCpu, r.requests),
    machineBusy: round((machine.busy - before.machine.busy) / (machine.total - before.machine.total), 2),
  };
  console.log(
    `  ${count} server${count > 1 ? 's' : ' '} ${pathname.padEnd(11)} ${m.rps} rps p50 ${m.p50} p99 ${m.p99} ms | servers ${m.serversCpuUsPerRequest} µs/req (${m.perServer.map((s) => `${s.requests} req, ${s.cpuUsPerRequest ?? '—'} µs`).join('; ')}) | nginx ${m.nginxCpuUsPerRequest} µs/req | machine ${Math.round(m.machineBusy * 100)}% busy${m.errors ? ` | ${m.errors} errors` : ''}`,
  );
  return m;
}

export async function run(): Promise<ClusterData> {
  const reason =
    (await skipReason()) ?? (existsSync(WRK) ? null : `wrk is not installed at ${WRK} (apt-get install wrk)`);
  if (reason) {
    console.log(`  Skipped: ${reason}.`);
    return { runs: [], skipped: reason };
  }
  ensureBenchBuild();
  const dbName = `bench_cluster_${randomBytes(4).toString('hex')}`;
  await sql(PG_ADMIN, `CREATE DATABASE ${dbName}`);
  onCleanup(async () => void (await sql(PG_ADMIN, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)));
  const postgres = (await sql<{ server_version: string }>(PG_ADMIN, 'SHOW server_version'))[0].server_version.split(
    ' ',
  )[0];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-bench-cluster-'));
  onCleanup(async () => rmSync(dir, { recursive: true, force: true }));
  const { cert, key } = makeCertificate(dir);
  const ca = readFileSync(cert);

  // All three at once on the empty database, as the cluster test starts them (migrations cope).
  const stores = await Promise.all(
    SERVER_PORTS.map((port, i) =>
      startStore({
        name: `cluster-${i + 1}`,
        port,
        env: {
          DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`,
          DATA_DIR: `.data-bench-cluster-${i + 1}`,
          TRUST_PROXY: '1',
          PUBLIC_SITE_URL: SITE,
          METRICS_TOKEN,
        },
      }),
    ),
  );

  // Two alternating rounds, the best of each kept: the least disturbed by other work on the machine.
  const rounds: Measured[] = [];
  for (const count of [1, 2, 3, 1, 2, 3]) {
    const nginx = await startNginx(dir, cert, key, {
      site: SITE,
      proxyPort: PORTS.cluster,
      // The plain-HTTP redirect is not measured: another loopback address keeps it off other ports.
      listenHttp: `127.0.0.2:${PORTS.cluster}`,
      serverPorts: SERVER_PORTS.slice(0, count),
    });
    const stop = () => stopChild(nginx, 'SIGQUIT');
    onCleanup(stop);
    for (const pathname of PATHS) rounds.push(await measure(count, stores, nginx.pid!, ca, pathname));
    await stop();
  }
  const runs = [1, 2, 3].flatMap((count) =>
    PATHS.map((pathname) =>
      rounds.filter((r) => r.servers === count && r.path === pathname).reduce((a, b) => (b.rps > a.rps ? b : a)),
    ),
  );
  return {
    cores: os.cpus().length, // the machine's, not this process's affinity
    nginx: /nginx\/([\d.]+)/.exec(spawnSync('nginx', ['-v'], { encoding: 'utf8' }).stderr)?.[1],
    postgres,
    runs,
  };
}

export function failed(data: ClusterData): boolean {
  return data.runs.some((r) => r.errors > 0);
}

export function render(data: ClusterData): Rendered {
  const lines = ['## 7. Several servers behind nginx (TLS) on one PostgreSQL', ''];
  if (data.skipped) {
    lines.push(`Skipped: ${data.skipped}.`);
    return { summary: [], section: lines.join('\n') };
  }
  lines.push(
    `nginx ${data.nginx} terminates TLS with the shipped \`deploy/nginx.conf\` (rendered by \`deploy/render-nginx.ts\`, one worker) in front of`,
    `1, 2 and 3 servers (\`node src/server/main.ts\`, TRUST_PROXY=1) on one scratch PostgreSQL ${data.postgres} database.`,
    `Load: wrk, 1 thread, ${LOAD.connections} keep-alive HTTPS connections, \`accept-encoding: br\`, ${LOAD.warmupSeconds} s warm-up then ${LOAD.seconds} s measured,`,
    "best of two alternating rounds (1, 2, 3 servers, then again). Requests per server are counted from each server's",
    '`http_requests_total`; CPU is user + system time (/proc) of that process per request it answered.',
    '',
    `**This machine has ${data.cores} cores, shared by nginx, wrk and every server** (and by whatever else runs on it), so adding`,
    'servers cannot scale throughput linearly here, or at all: the cores are already busy with one server (the "machine busy"',
    'column counts every process on the machine), and a second or third server only splits the same CPU, each process waking',
    'up for fewer requests (compare "servers CPU/req"). What these rows do show: nginx spreads requests evenly, nothing fails',
    'while it does, and what TLS and proxying cost per request (nginx CPU/req). On separate machines, the point of several',
    "servers, throughput adds up until nginx or PostgreSQL is the limit (public reads are answered from each server's memory).",
    '',
    '| servers | path | bytes | rps | p50 | p99 | requests per server | CPU/req per server | servers CPU/req | nginx CPU/req | machine busy |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of data.runs)
    lines.push(
      `| ${r.servers} | \`${r.path}\` | ${r.bytes}${r.encoding ? ` (${r.encoding})` : ''} | ${r.rps} | ${r.p50} ms | ${r.p99} ms | ${r.perServer.map((s) => s.requests).join(' / ')} | ${r.perServer.map((s) => `${s.cpuUsPerRequest ?? '—'} µs`).join(' / ')} | ${r.serversCpuUsPerRequest} µs | ${r.nginxCpuUsPerRequest} µs | ${Math.round(r.machineBusy * 100)}% |`,
    );
  const errors = data.runs.reduce((a, r) => a + r.errors, 0);
  if (errors) lines.push('', `${errors} requests failed (non-2xx, socket errors or timeouts).`);
  const rps = (p: string) =>
    data.runs
      .filter((r) => r.path === p)
      .map((r) => r.rps)
      .join(' / ');
  return {
    summary: [
      {
        metric: `cluster behind nginx (TLS), 1 / 2 / 3 servers on ${data.cores} shared cores: rps \`/api/tools\`; \`/\``,
        goal: 'reported, no errors',
        result: `${rps('/api/tools')}; ${rps('/')}`,
        ok: errors === 0,
      },
    ],
    section: lines.join('\n'),
  };
}
