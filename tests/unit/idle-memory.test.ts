// A quiet server gives back the heap its busy time grew (src/server/host/idle-memory.ts), once per growth,
// and never while it is busy. Run in a child process: the collection is the whole process's.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

interface Outcome {
  collections: { beforeBytes: number; afterBytes: number }[];
  reservedGrown: number;
  reservedEnd: number;
  globalGc: string;
}

function run(busyMs: number): Outcome {
  const script = `
    import { getHeapStatistics } from 'node:v8';
    import { collectWhenIdle } from './src/server/host/idle-memory.ts';
    // Grow the heap as a busy spell or a start-up does: ~120 MB of objects, then dropped.
    let junk = [];
    for (let i = 0; i < 600_000; i++) junk.push({ i, text: 'hammer ' + i, list: [i, i + 1, i + 2] });
    junk = undefined;
    const reservedGrown = getHeapStatistics().total_heap_size;
    const collections = [];
    const stop = collectWhenIdle({ everyMs: 100, quietChecks: 2, grownBytes: 8 << 20, onCollected: (c) => collections.push(c) });
    // Busy: the loop is held ${busyMs} ms of every 100 ms for the whole wait.
    const hold = setInterval(() => { const end = Date.now() + ${busyMs}; while (Date.now() < end); }, 100);
    await new Promise((r) => setTimeout(r, 1500));
    clearInterval(hold);
    stop();
    console.log(JSON.stringify({ collections, reservedGrown, reservedEnd: getHeapStatistics().total_heap_size, globalGc: typeof globalThis.gc }));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(out.stderr).not.toMatch(/Error/);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as Outcome;
}

describe('collectWhenIdle', () => {
  it('compacts the heap once when the loop goes quiet after it grew, and exposes no global gc', () => {
    const { collections, reservedGrown, reservedEnd, globalGc } = run(0);
    expect(collections).toHaveLength(1); // not again: the heap did not grow after it
    expect(reservedGrown).toBeGreaterThan(64 << 20);
    expect(collections[0].afterBytes).toBeLessThan(collections[0].beforeBytes / 2);
    expect(reservedEnd).toBeLessThan(reservedGrown / 2);
    expect(globalGc).toBe('undefined');
  });

  it('does not collect while the loop is busy', () => {
    const { collections, reservedEnd, reservedGrown } = run(50);
    expect(collections).toEqual([]);
    expect(reservedEnd).toBeGreaterThan(reservedGrown / 2);
  });
});
