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

  it('gathers a burst that trickles in while others are answered, and never delays a lone call', async () => {
    // A rush arrives on connections of its own, a millisecond or so apart: without gathering, one run each.
    const trickle = async (gather?: { ms: number; when: () => boolean }) => {
      const runs: number[][] = [];
      const echo = batched(
        async (items: number[]) => {
          runs.push(items);
          return items;
        },
        { gather },
      );
      const calls: Promise<number>[] = [];
      for (let i = 0; i < 6; i++) {
        calls.push(echo(i));
        await new Promise((r) => setTimeout(r, 1));
      }
      await Promise.all(calls);
      return runs;
    };
    expect((await trickle()).length).toBe(6);
    // A window far longer than the six 1 ms steps, so a busy test machine's timer delays cannot split it.
    const gathered = await trickle({ ms: 200, when: () => true });
    expect(gathered.length).toBeLessThanOrEqual(2);
    expect(gathered.flat()).toEqual([0, 1, 2, 3, 4, 5]);
    // Nothing else in flight: the call runs at the next turn, not after the gathering time.
    const alone = batched(async (items: number[]) => items, { gather: { ms: 1000, when: () => false } });
    const started = performance.now();
    expect(await alone(7)).toBe(7);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
