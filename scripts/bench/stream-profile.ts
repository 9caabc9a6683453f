// Where the order stream's CPU goes: a store (PGlite, or PostgreSQL with --pg) with 2,000 tools, started
// with --cpu-prof, gets the bench's order stream alone (8 buyers, 85 orders/s placed and deleted) for
// 12 s after 4 s of warm-up, is stopped, and the profile's last 11 s are summed by function (self time)
// and by where the code lives. A tool for working on issue 30's goal 1; `npm run bench` does not run it.
//   node scripts/bench/stream-profile.ts [--pg] [--top N] [--no-prof | --perf | --strace] [--read PATH] [--first N]
// With --read, wrk reads PATH (as the busy part does: 10 connections, from the client core) through the
// measured seconds, so the profile shows where a busy read's time goes beside the orders'.
// With --pg it also prints PostgreSQL's CPU per order by kind of process and the WAL's writes and flushes.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { orderStream, prepare, STREAM_ENV } from './parts/busy.ts';
import { accessToken, idToken, pool } from './parts/purchase.ts';
import { BROWSER_HEADERS, cpuMs, http, pin, round, wrk, CORES } from './load.ts';
import { cleanup, ensureBenchBuild, pgScratch, PORTS, startBenchEmulator, startStore, TMP } from './store.ts';

const usePg = process.argv.includes('--pg');
const topIndex = process.argv.indexOf('--top');
const TOP = topIndex > 0 ? Number(process.argv[topIndex + 1]) : 40;
const WARM_MS = 4000;
const MEASURED_MS = 12_000;
const WINDOW_US = 11_000_000;
const usePerf = process.argv.includes('--perf');
// --strace: the server's system calls counted (`strace -c -f`), to see how many socket writes an order costs.
const useStrace = process.argv.includes('--strace');
const profiled = !process.argv.includes('--no-prof') && !usePerf && !useStrace;
const readIndex = process.argv.indexOf('--read');
const READ_PATH = readIndex > 0 ? process.argv[readIndex + 1] : undefined;
// --first N: orders go to the catalogue's first N tools (those of `/tools`), as in stream-ab.ts.
const firstIndex = process.argv.indexOf('--first');
const FIRST = firstIndex > 0 ? Number(process.argv[firstIndex + 1]) : 0;

/** CPU ms of each of a process's threads by name (the profile sees only the main thread). */
function threadCpu(pid: number): Map<string, number> {
  const tick = 10; // USER_HZ 100
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [utime, stime] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(11, 13)
        .map(Number);
      byName.set(name, (byName.get(name) ?? 0) + (utime + stime) * tick);
    } catch {
      // the thread ended
    }
  }
  return byName;
}

/**
 * --pg: PostgreSQL's CPU by kind of process (the store's connections, the WAL writer, autovacuum, ...),
 * sampled every 100 ms from the process titles, so short-lived workers (autovacuum) count too.
 */
function postgresCpu() {
  const seen = new Map<number, { kind: string; start: number; last: number }>();
  const sample = () => {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      try {
        const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        if (!title.startsWith('postgres:')) continue;
        const known = seen.get(pid);
        const used = cpuMs([pid]);
        if (known) known.last = used;
        else {
          // A client backend's title: "postgres: 15/main: user database host(port) state".
          const kind = / \d+\.\d+\.\d+\.\d+\(\d+\)/.test(title)
            ? 'connections'
            : title.replace(/^postgres: (\S+: )?/, '').replace(/ .*$/, '');
          seen.set(pid, { kind, start: started ? 0 : used, last: used });
        }
      } catch {
        // ended meanwhile
      }
    }
  };
  let started = false;
  sample();
  started = true;
  const timer = setInterval(sample, 100);
  return {
    /** CPU ms by kind since the start. */
    stop(): Map<string, number> {
      clearInterval(timer);
      sample();
      const byKind = new Map<string, number>();
      for (const { kind, start, last } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + last - start);
      return byKind;
    },
  };
}

/** --pg: the WAL's counters (pg_stat_wal: records, writes, flushes to disk), for the whole cluster. */
async function walCounters(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT wal_records::float8 AS records, wal_write::float8 AS writes, wal_sync::float8 AS syncs FROM pg_stat_wal',
    );
    return rows[0] as Record<string, number>;
  } finally {
    await client.end();
  }
}

/** What each open file descriptor of a process is (a socket's peer port, a pipe, a file). */
function fdTargets(pid: number): Map<string, string> {
  const sockets = new Map<string, string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6'])
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9)
        sockets.set(f[9], `tcp :${parseInt(f[1].split(':')[1], 16)} -> :${parseInt(f[2].split(':')[1], 16)}`);
    }
  const out = new Map<string, string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /socket:\[(\d+)\]/.exec(target)?.[1];
      out.set(fd, inode ? (sockets.get(inode) ?? target) : target);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** --strace: write system calls per order placed and deleted, by what they wrote to. */
function writesPerOrder(file: string, fds: Map<string, string>, orders: number) {
  const counts = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /(write|writev|sendmsg|sendto)\((\d+)/.exec(line);
    if (!m) continue;
    // A client's ephemeral port says little: group sockets by the local port they were accepted on or the peer's.
    const target = (fds.get(m[2]) ?? `fd ${m[2]} (closed)`).replace(/tcp :(\d+) -> :(\d+)/, (_, a, b) =>
      Number(a) < 32768 ? `tcp accepted on :${a}` : `tcp to :${b}`,
    );
    const key = `${m[1]} ${target}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  console.log('system calls that write, per order placed and deleted:');
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${round(n / orders, 2)}  ${k}`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, for the summary by place. */
function placeOf(url: string, name: string): string {
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') return name;
  if (url.startsWith('wasm://')) return 'WebAssembly';
  if (url.includes('/node_modules/'))
    return url
      .split('/node_modules/')
      .pop()!
      .split('/')
      .slice(0, url.includes('/@') ? 2 : 1)
      .join('/');
  if (url.includes('/src/')) return 'ours: ' + url.split('/src/').pop()!.split('/').slice(0, 2).join('/');
  if (url.startsWith('node:') || url === '') return 'node';
  return url;
}

function summarise(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let t = 0;
  const times = profile.timeDeltas.map((d) => (t += d));
  const end = times[times.length - 1];
  const selfUs = new Map<number, number>();
  for (let i = 1; i < profile.samples.length; i++) {
    if (times[i] < end - WINDOW_US) continue;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (times[i] - times[i - 1]));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const show = (title: string, map: Map<string, number>, n: number) => {
    console.log(`\n${title}`);
    for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`  ${String(round((100 * us) / total, 1)).padStart(5)}%  ${k}`);
  };
  show('by place (self time)', byPlace, 25);
  show('by function (self time)', byFunction, TOP);
}

async function main() {
  ensureBenchBuild();
  await startBenchEmulator();
  pin([process.pid], CORES.client);
  const emails = Array.from({ length: 8 }, (_, i) => `busy-${i}@bench.ironcrest.test`);
  const firebaseTokens = await pool(emails, 4, (email) => idToken(email, true));
  const profDir = path.join(TMP, 'stream-profile');
  rmSync(profDir, { recursive: true, force: true });
  mkdirSync(profDir, { recursive: true });
  const scratch = usePg ? await pgScratch('profile') : undefined;
  if (usePg && !scratch) throw new Error('no PostgreSQL reachable');
  const dataDir = '.data-bench-busy-2000';
  await prepare(dataDir, scratch?.url, 2000);
  const store = await startStore({
    name: 'stream-profile',
    port: PORTS.store,
    env: {
      DATA_DIR: usePg ? '.data-bench-busy-pg' : dataDir,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...STREAM_ENV,
      ...(profiled ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir} --cpu-prof-interval=250` } : {}),
      ...(usePerf ? { NODE_OPTIONS: '--perf-basic-prof-only-functions --interpreted-frames-native-stack' } : {}),
    },
  });
  const buyers = await pool(emails, 4, (email, i) =>
    accessToken(store.url, email, firebaseTokens[i], `127.0.0.${30 + i}`),
  );
  const catalogue = JSON.parse((await http('GET', `${store.url}/api/tools`)).body) as {
    _id: string;
    minimumOrderQuantity: number;
  }[];
  const stream = orderStream(store.url, buyers, FIRST ? catalogue.slice(0, FIRST) : catalogue.slice(1, 101), 85);
  await new Promise((r) => setTimeout(r, WARM_MS));
  const pgCpu = scratch && postgresCpu();
  const walBefore = scratch && (await walCounters(scratch.url));
  const [placed, cpu, threads, started] = [
    stream.placed(),
    cpuMs([store.pid]),
    threadCpu(store.pid),
    performance.now(),
  ];
  // --perf: the kernel's view too (syscalls, the network stack), with JIT-compiled names from /tmp/perf-PID.map.
  const straceOut = path.join(profDir, 'strace.txt');
  const perf = usePerf
    ? spawn(
        'perf',
        [
          'record',
          '-F',
          '997',
          '-g',
          '-p',
          String(store.pid),
          '-o',
          path.join(profDir, 'perf.data'),
          '--',
          'sleep',
          String(MEASURED_MS / 1000),
        ],
        { stdio: 'ignore' },
      )
    : useStrace
      ? spawn(
          'timeout',
          [
            '-s',
            'INT',
            String(MEASURED_MS / 1000),
            'strace',
            '-f',
            '-e',
            'trace=write,writev,sendmsg,sendto',
            '-o',
            straceOut,
            '-p',
            String(store.pid),
          ],
          { stdio: 'ignore' },
        )
      : undefined;
  // Ended, or never started (no perf on this machine): either way the measured time is over once it says so.
  const perfDone = perf && new Promise<unknown>((resolve) => perf.once('exit', resolve).once('error', resolve));
  const reads = READ_PATH ? wrk(store.url + READ_PATH, BROWSER_HEADERS, MEASURED_MS / 1000) : undefined;
  await new Promise((r) => setTimeout(r, MEASURED_MS));
  const read = await reads;
  if (read) console.log(`wrk ${READ_PATH}: ${read.rps} rps, p99 ${read.p99} ms`);
  const perfEnd = await perfDone;
  if (perfEnd instanceof Error) console.log(`perf did not run: ${perfEnd.message}`);
  const orders = stream.placed() - placed;
  const fds = useStrace ? fdTargets(store.pid) : undefined;
  const ms = cpuMs([store.pid]) - cpu;
  const threadsAfter = threadCpu(store.pid);
  const pgByKind = pgCpu?.stop();
  const walAfter = scratch && (await walCounters(scratch.url));
  const { errors, lastError } = await stream.stop();
  await store.stop();
  await scratch?.drop();
  console.log(
    `${usePg ? 'PostgreSQL' : 'PGlite'}: ${round((orders * 1000) / (performance.now() - started), 0)} orders/s, ` +
      `${round(ms / orders, 2)} ms of server CPU per order placed and deleted` +
      (profiled ? ' (with the profiler on)' : '') +
      (errors ? `; ${errors} failed (last: ${lastError})` : ''),
  );
  console.log('by thread, ms per order:');
  for (const [name, after] of threadsAfter) {
    const used = (after - (threads.get(name) ?? 0)) / orders;
    if (used >= 0.01) console.log(`  ${name.padEnd(16)} ${round(used, 2)}`);
  }
  if (pgByKind && walBefore && walAfter) {
    console.log('PostgreSQL, ms per order (all its processes, other databases included):');
    for (const [kind, used] of [...pgByKind].sort((a, b) => b[1] - a[1]))
      if (used / orders >= 0.01) console.log(`  ${kind.padEnd(20)} ${round(used / orders, 2)}`);
    console.log(
      'WAL per order (the whole cluster): ' +
        Object.keys(walAfter)
          .map((k) => `${k} ${round((walAfter[k] - walBefore[k]) / orders, 2)}`)
          .join(', '),
    );
  }
  if (fds) writesPerOrder(straceOut, fds, orders);
  if (usePerf) console.log(`perf report -i ${path.join(profDir, 'perf.data')} --no-children --sort dso,sym`);
  if (!profiled) return;
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  summarise(JSON.parse(readFileSync(path.join(profDir, file), 'utf8')) as Profile);
  console.log(`\nprofile: ${path.join(profDir, file)}`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
