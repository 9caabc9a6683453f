// Where a server's memory goes, for the bench's report (issue 30, goal 4): its resident memory split by
// mapping (the node binary's pages, anonymous memory, malloc's heap), V8's heap and what lives outside it
// (from its /metrics), and a heap snapshot's largest kinds of object. The store is started with
// `--heapsnapshot-signal=SIGUSR2` (heapSnapshotEnv), so the bench asks for a snapshot with a signal.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { TMP } from './store.ts';

/** Resident memory by mapping and V8's own figures: cheap, no garbage collection forced. */
export interface MemorySplit {
  /** Resident MiB by mapping kind: the node binary, anonymous memory (V8's heap, WebAssembly), malloc's heap. */
  resident: Record<string, number>;
  /** From the server's /metrics: V8's heap in use and reserved, and memory outside it (buffers, WebAssembly). */
  v8: { usedMiB: number; totalMiB: number; externalMiB: number };
}

export interface HeapSummary extends MemorySplit {
  /** What the heap snapshot (taken after a full collection) holds: live objects only. */
  liveMiB: number;
  /** The heap snapshot's largest groups (constructor or kind), by their own size. */
  largest: { name: string; mib: number; count: number }[];
}

const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** The environment that lets the bench ask a store for a heap snapshot (written into dir). */
export function heapSnapshotEnv(name: string): { NODE_OPTIONS: string; dir: string } {
  const dir = path.join(TMP, `heap-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`, dir };
}

function residentByKind(pid: number): Record<string, number> {
  const kinds: Record<string, number> = {};
  let kind = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[\da-f]+-[\da-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const file = head[1];
      kind = !file
        ? 'anonymous'
        : file === '[heap]'
          ? 'malloc'
          : file.endsWith('/node')
            ? 'node binary'
            : 'other files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]) * 1024;
  }
  return Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, mib(v)]));
}

async function v8Figures(metricsUrl: string): Promise<HeapSummary['v8']> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    usedMiB: mib(value('nodejs_heap_size_used_bytes')),
    totalMiB: mib(value('nodejs_heap_size_total_bytes')),
    externalMiB: mib(value('nodejs_external_memory_bytes')),
  };
}

/** Groups a .heapsnapshot's nodes by constructor (objects) or kind (strings, code, arrays…). */
function largestGroups(file: string): Pick<HeapSummary, 'largest' | 'liveMiB'> {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const groups = new Map<string, { bytes: number; count: number }>();
  let live = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]];
    const name = type === 'object' || type === 'native' ? snapshot.strings[snapshot.nodes[i + nameAt]] : `(${type})`;
    const group = groups.get(name) ?? { bytes: 0, count: 0 };
    group.bytes += snapshot.nodes[i + sizeAt];
    // Backing stores of ArrayBuffers (PGlite's WebAssembly memory) live outside V8's heap.
    if (type !== 'native') live += snapshot.nodes[i + sizeAt];
    group.count++;
    groups.set(name, group);
  }
  const largest = [...groups]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, 8)
    .map(([name, g]) => ({ name: name.slice(0, 60), mib: mib(g.bytes), count: g.count }));
  return { largest, liveMiB: mib(live) };
}

export async function memorySplit(pid: number, metricsUrl: string): Promise<MemorySplit> {
  return { resident: residentByKind(pid), v8: await v8Figures(metricsUrl) };
}

/**
 * Measures where pid's memory goes (or takes `measured`, taken earlier); asks it for a heap snapshot last:
 * writing one takes memory too, which the process keeps.
 */
export async function heapSummary(
  pid: number,
  metricsUrl: string,
  dir: string,
  measured?: MemorySplit,
): Promise<HeapSummary> {
  const split = measured ?? (await memorySplit(pid, metricsUrl));
  process.kill(pid, 'SIGUSR2');
  let file: string | undefined;
  let lastSize = -1;
  for (let waited = 0; waited < 120_000; waited += 500) {
    await new Promise((r) => setTimeout(r, 500));
    const found = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot'));
    if (!found) continue;
    // Written in pieces: done when its size stops changing.
    const size = statSync(path.join(dir, found)).size;
    if (size > 0 && size === lastSize) {
      file = path.join(dir, found);
      break;
    }
    lastSize = size;
  }
  if (!file) throw new Error(`no heap snapshot in ${dir} within 120 s`);
  const summary = { ...split, ...largestGroups(file) };
  rmSync(dir, { recursive: true, force: true });
  return summary;
}

const splitText = (s: MemorySplit) =>
  `resident by mapping ${Object.entries(s.resident)
    .map(([k, v]) => `${k} ${v} MiB`)
    .join(
      ', ',
    )}; V8's heap ${s.v8.usedMiB} MiB used (live and not yet collected) of ${s.v8.totalMiB} MiB reserved, ${s.v8.externalMiB} MiB outside it (buffers and, on PGlite, its WebAssembly memory)`;

/** Where the memory goes at rest and under load, as report lines. */
export function renderMemorySplit(
  label: string,
  rest: MemorySplit | undefined,
  loaded: HeapSummary | undefined,
): string[] {
  return [
    ...(rest ? [`- ${label} at rest: ${splitText(rest)}.`] : []),
    ...(loaded
      ? [
          `- ${label} under load: ${splitText(loaded)}. A heap snapshot (after a full collection, taken last) holds ${loaded.liveMiB} MiB of live objects; the largest groups by own size: ${loaded.largest
            .map((g) => `${g.name} ${g.mib} MiB (${g.count.toLocaleString('en-US')})`)
            .join(', ')}.`,
        ]
      : []),
  ];
}
