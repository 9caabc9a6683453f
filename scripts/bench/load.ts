// Load generation (autocannon, bounded in time) and small timing helpers shared by the parts.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

/** Short runs on purpose: the whole bench must fit in 20 minutes on 2 cores. */
export const LOAD = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  warmupSeconds: 1,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
};
export const BROWSER_HEADERS = { 'accept-encoding': 'br, gzip' };

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU time the server's processes spent per request (user + system), in µs: steadier than rps on a busy machine. */
  cpuUsPerRequest?: number;
}

/** CPU time (user + system) of processes and their children threads so far, in ms (Linux /proc). */
export function cpuMs(pids: number[]): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick; // utime, stime
    } catch {
      // the process is gone
    }
  }
  return total;
}

/** A process and its direct children (nginx's master and worker). */
export function withChildren(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children ? children.split(/\s+/).map(Number) : [])];
  } catch {
    return [pid];
  }
}

/** A warm-up second, then LOAD.seconds of closed-loop load with LOAD.connections keep-alive connections. */
export async function hammer(
  url: string,
  headers: Record<string, string> = {},
  serverPids: number[] = [],
): Promise<LoadResult> {
  const base = { url, connections: LOAD.connections, headers, timeout: 10 };
  await autocannon({ ...base, duration: LOAD.warmupSeconds });
  const cpuBefore = cpuMs(serverPids);
  const r = await autocannon({ ...base, duration: LOAD.seconds });
  const cpu = cpuMs(serverPids) - cpuBefore;
  return {
    rps: Math.round(r.requests.total / LOAD.seconds),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    cpuUsPerRequest: serverPids.length && r.requests.total ? Math.round((cpu * 1000) / r.requests.total) : undefined,
  };
}

/** Best of several rounds (least disturbed by the other work on a shared machine). */
export const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface HttpResult {
  status: number;
  ms: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One HTTP request over node:http (optionally from a given loopback source address), timed. */
export function http(
  method: string,
  url: string,
  options: {
    token?: string;
    json?: unknown;
    localAddress?: string;
    agent?: Agent;
    timeoutMs?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<HttpResult> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (body) headers['content-type'] = 'application/json';
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers,
        localAddress: options.localAddress,
        agent: options.agent,
        timeout: options.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Latencies (ms) of sequential GETs of `urls` on one keep-alive connection, in request order; bounded to 60 s. */
export async function timedGets(urls: string[]): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const deadline = Date.now() + 60_000;
  try {
    for (const url of urls) {
      if (Date.now() > deadline) break;
      const r = await http('GET', url, { agent });
      if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
      times.push(r.ms);
    }
  } finally {
    agent.destroy();
  }
  return times;
}
