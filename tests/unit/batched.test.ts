// The one mechanism behind the user lookups, rate-limit hits and one-tool orders of a rush.
import { describe, expect, it } from 'vitest';
import { batched } from '../../src/server/db/batched';

describe('batched', () => {
  it('answers calls made together with one run, each with its own result, in arrival order', async () => {
    const runs: number[][] = [];
    const double = batched(async (items: number[]) => {
      runs.push(items);
      return items.map((n) => n * 2);
    });
    expect(await Promise.all([1, 2, 3].map(double))).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('puts calls made while a run is busy into the next run, at most maxBatch at a time', async () => {
    const runs: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const echo = batched(
      async (items: number[]) => {
        runs.push(items);
        if (runs.length === 1) await gate;
        return items;
      },
      { maxBatch: 2 },
    );
    const first = echo(1);
    await new Promise((r) => setImmediate(r));
    const later = [2, 3, 4].map(echo);
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(runs).toEqual([[1], [2, 3], [4]]);
  });

  it('rejects only the calls of a run that failed, and keeps answering after it', async () => {
    let fail = true;
    const maybe = batched(async (items: string[]) => {
      if (fail) throw new Error('database gone');
      return items;
    });
    const failed = await Promise.allSettled([maybe('a'), maybe('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await maybe('c')).toBe('c');
  });
});
