// A server that goes quiet gives back the memory its busy time grew. V8 keeps the heap it grew to (under
// load, or with the start-up's catalogue, search index and warm-up garbage) until its own memory reducer
// runs, which on this server it did not: 40 s after start a PostgreSQL store held 112–195 MiB of heap for
// 60 MiB of live objects (bench/before-after.md). So when the event loop has been idle for a while and
// the heap grew since the last time, one full collection that compacts and releases free pages (V8's
// "last resort" kind, as under memory pressure): ~100 ms of a core with nobody waiting, then nothing
// until the heap grows again.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleMemoryOptions {
  /** How often the loop's idleness is looked at. */
  everyMs?: number;
  /** Idle means the loop was busy less than this share of the time, for `quietChecks` looks in a row. */
  busyShare?: number;
  quietChecks?: number;
  /** A collection is worth it when the heap reserved this much more than after the last one. */
  grownBytes?: number;
  /** Called after each collection (the log, tests). */
  onCollected?: (result: { ms: number; beforeBytes: number; afterBytes: number }) => void;
}

type FullCollection = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's `gc`, which Node exposes only with --expose-gc: set for one new context and cleared again, so that
 * nothing else in the process (or a page's code) finds a global `gc`.
 */
function fullCollection(): FullCollection {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as FullCollection;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Starts watching; returns `stop`. The timer does not keep the process alive. */
export function collectWhenIdle({
  everyMs = 5_000,
  busyShare = 0.02,
  quietChecks = 2,
  grownBytes = 16 * 1024 * 1024,
  onCollected,
}: IdleMemoryOptions = {}): () => void {
  const gc = fullCollection();
  let last = performance.eventLoopUtilization();
  let quiet = 0;
  let reservedAfter = 0; // nothing collected yet: the start-up's garbage is worth one collection
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    quiet = busy < busyShare ? quiet + 1 : 0;
    const reserved = getHeapStatistics().total_heap_size;
    if (quiet < quietChecks || reserved < reservedAfter + grownBytes) return;
    const started = performance.now();
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    reservedAfter = getHeapStatistics().total_heap_size;
    last = performance.eventLoopUtilization(); // the collection itself is not the next look's busy time
    quiet = 0;
    onCollected?.({ ms: performance.now() - started, beforeBytes: reserved, afterBytes: reservedAfter });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
