// Load generation (wrk, client and server pinned to separate cores) and small timing helpers shared by the parts.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { responseBytes } from './pages.ts';

/** Short runs on purpose: every part in one run takes ~40 minutes on 2 cores (the tracing part 17 of them). */
export const LOAD = {
  tool: 'wrk',
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  warmupSeconds: 1,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  /** Alternating rounds per target, the best kept: the machine is shared, and other work only slows a round. */
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  /** Load on each target of a server that just started, before its rounds: its JIT's steady state is measured. */
  settleSeconds: 3,
};
export const BROWSER_HEADERS = { 'accept-encoding': 'br, gzip' };

// wrk (C, one thread) drives the load: autocannon (Node) saturated its own core first, near 5,000 rps on
// brotli bodies, so ratios measured the client. The servers under test share one core, wrk has the other.
export const WRK = '/usr/bin/wrk';
export const CORES = { server: 0, client: 1 };
const TASKSET = '/usr/bin/taskset';

/** Why the bench cannot drive load here, or undefined when it can. */
export function loadToolMissing(): string | undefined {
  if (!existsSync(WRK)) return `wrk is not installed at ${WRK}: apt-get install -y wrk`;
  if (!existsSync(TASKSET)) return `taskset is not installed at ${TASKSET}: apt-get install -y util-linux`;
  return undefined;
}

/** Pins processes (every thread, and the threads they start later) to one core. */
export function pin(pids: number[], core = CORES.server): void {
  for (const pid of pids) spawnSync(TASKSET, ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
}

/** The cores the bench was started on (`0,1`), read when this module is first loaded, before any part pins it. */
const BENCH_CORES = existsSync(TASKSET)
  ? /list: (\S+)/.exec(spawnSync(TASKSET, ['-c', '-p', String(process.pid)], { encoding: 'utf8' }).stdout)?.[1]
  : undefined;

/**
 * Gives this process (and what it starts next) the cores it was started on again. A part that pins the bench
 * to the client's core would otherwise leave the parts after it with their servers, wrk and the bench on one
 * core: every process a part starts inherits the bench's affinity.
 */
export function unpinBench(): void {
  if (BENCH_CORES) spawnSync(TASKSET, ['-a', '-p', '-c', BENCH_CORES, String(process.pid)], { stdio: 'ignore' });
}

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

/** A clock tick of /proc's CPU times, in ms (USER_HZ is 100 on Linux). */
const TICK_MS = 10;

/** CPU time (user + system) of processes and their children threads so far, in ms (Linux /proc). */
export function cpuMs(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
    } catch {
      // the process is gone
    }
  }
  return total;
}

/** CPU time (busy, and busy + idle) of the whole machine so far, in ms summed over its cores (Linux /proc/stat). */
function machineMs(): { busy: number; total: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((n) => Number(n) * TICK_MS);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/**
 * Waits until the machine, apart from the processes `except` (the server about to be measured, whose own
 * start-up work counts), has been quiet for `windowMs`: its other processes used less than `share` of its
 * cores. A one-shot figure (a first rush) otherwise measured what an earlier part left running: right after
 * the tracing part, the bare server's rush took p99 64–72 ms instead of 20–38. Gives up after `timeoutMs`.
 */
export async function untilQuiet({
  except = [],
  share = 0.1,
  windowMs = 500,
  timeoutMs = 30_000,
}: { except?: number[]; share?: number; windowMs?: number; timeoutMs?: number } = {}): Promise<{
  waitedMs: number;
  busy: number;
}> {
  const started = performance.now();
  for (;;) {
    const before = { machine: machineMs(), except: cpuMs(except) };
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const machine = machineMs();
    const total = machine.total - before.machine.total;
    const busy = total > 0 ? (machine.busy - before.machine.busy - (cpuMs(except) - before.except)) / total : 0;
    const waitedMs = Math.round(performance.now() - started);
    if (busy < share || waitedMs >= timeoutMs) return { waitedMs, busy: round(Math.max(0, busy), 2) };
  }
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

/** Time in ms from a wrk figure such as 812.00us, 1.23ms or 1.01s. */
function wrkMs(figure: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(figure.trim());
  if (!m) throw new Error(`unexpected wrk time "${figure}"`);
  return round(Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'], 2);
}

/** One wrk run on the client core: 1 thread, LOAD.connections keep-alive connections. */
export function wrk(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<Omit<LoadResult, 'cpuUsPerRequest'>> {
  const missing = loadToolMissing();
  if (missing) return Promise.reject(new Error(missing));
  const args = [
    '-c',
    String(CORES.client),
    WRK,
    '-t1',
    `-c${LOAD.connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '--latency',
  ];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) =>
    execFile(TASKSET, args, { timeout: (seconds + 30) * 1000 }, (error, out) => {
      if (error) return reject(new Error(`wrk failed: ${error.message}`));
      const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
      const latency = (p: string) => wrkMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? 'x');
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      resolve({
        rps: Math.round(requests / seconds),
        p50: latency('50'),
        p99: latency('99'),
        requests,
        non2xx,
        errors: socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0,
      });
    }),
  );
}

/**
 * A warm-up second, then `seconds` (LOAD.seconds) of closed-loop load with LOAD.connections keep-alive connections,
 * from wrk on the client core; the server's processes are pinned to the server core first.
 */
export async function hammer(
  url: string,
  headers: Record<string, string> = {},
  serverPids: number[] = [],
  seconds = LOAD.seconds,
): Promise<LoadResult> {
  pin(serverPids);
  await wrk(url, headers, LOAD.warmupSeconds);
  const cpuBefore = cpuMs(serverPids);
  const r = await wrk(url, headers, seconds);
  const cpu = cpuMs(serverPids) - cpuBefore;
  return {
    ...r,
    cpuUsPerRequest: serverPids.length && r.requests ? Math.round((cpu * 1000) / r.requests) : undefined,
  };
}

/**
 * Closed-loop load on several servers at once, one wrk each (all on the client core), the servers sharing
 * the server core: each gets an equal share of it, so their rates compare their costs per request, and a
 * change of the machine's speed during the run touches all of them alike (rounds one after another do not).
 */
export async function hammerTogether(
  targets: { url: string; pids: number[] }[],
  seconds: number,
): Promise<LoadResult[]> {
  for (const t of targets) pin(t.pids);
  await Promise.all(targets.map((t) => wrk(t.url, {}, LOAD.warmupSeconds)));
  const cpuBefore = targets.map((t) => cpuMs(t.pids));
  const results = await Promise.all(targets.map((t) => wrk(t.url, {}, seconds)));
  return results.map((r, i) => ({
    ...r,
    cpuUsPerRequest: r.requests ? Math.round(((cpuMs(targets[i].pids) - cpuBefore[i]) * 1000) / r.requests) : undefined,
  }));
}

/** Load on each URL, not measured: code a fresh server has not yet compiled for these requests gets compiled. */
export async function settle(
  urls: string[],
  headers: Record<string, string> = {},
  serverPids: number[] = [],
  seconds = LOAD.settleSeconds,
) {
  pin(serverPids);
  for (const url of urls) await wrk(url, headers, seconds);
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
  /** The status line and headers as sent, in bytes. */
  headerBytes: number;
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
            headerBytes: responseBytes(
              res.statusCode ?? 0,
              res.statusMessage ?? '',
              res.rawHeaders.flatMap((name, i) => (i % 2 ? [] : [{ name, value: res.rawHeaders[i + 1] }])),
              0,
            ),
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
