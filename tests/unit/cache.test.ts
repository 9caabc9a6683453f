import { describe, expect, it } from 'vitest';
import { memoise, ttlCache } from '../../src/server/caching/cache';

describe('ttlCache', () => {
  it('keeps a value for its TTL, then reads again', async () => {
    let clock = 0;
    let reads = 0;
    const cache = ttlCache<number>({ ttlMs: 100, now: () => clock });
    const read = async () => ++reads;
    expect(await cache.get('a', read)).toBe(1);
    clock = 100;
    expect(await cache.get('a', read)).toBe(1);
    clock = 101;
    expect(await cache.get('a', read)).toBe(2);
    expect(await cache.get('b', read)).toBe(3);
  });

  it('forgets everything on drop, and never keeps a read that started before the drop', async () => {
    let reads = 0;
    const cache = ttlCache<number>({ ttlMs: 60_000 });
    let release!: () => void;
    const slow = () =>
      new Promise<number>((resolve) => {
        release = () => resolve(++reads);
      });
    const pending = cache.get('a', slow);
    cache.drop();
    release();
    expect(await pending).toBe(1); // answered…
    expect(await cache.get('a', async () => ++reads)).toBe(2); // …but not kept
    expect(await cache.get('a', async () => ++reads)).toBe(2);
    cache.drop();
    expect(await cache.get('a', async () => ++reads)).toBe(3);
  });

  it('calls kept only for values it keeps', async () => {
    const kept: number[] = [];
    const cache = ttlCache<number>({ ttlMs: 60_000, kept: (v) => kept.push(v) });
    await cache.get('a', async () => 1);
    let release!: () => void;
    const raced = cache.get('b', () => new Promise<number>((resolve) => (release = () => resolve(2))));
    cache.drop();
    release();
    await raced;
    expect(kept).toEqual([1]);
  });

  it('is bounded by entries and by weight: past a bound it starts over', async () => {
    const cache = ttlCache<number[]>({ ttlMs: 60_000, maxEntries: 2, maxWeight: 5, weigh: (v) => v.length });
    let reads = 0;
    const read = (n: number) => async () => (reads++, new Array<number>(n).fill(0));
    await cache.get('a', read(1));
    await cache.get('b', read(1));
    await cache.get('c', read(1)); // a third entry: a and b go
    expect(reads).toBe(3);
    await cache.get('c', read(1));
    expect(reads).toBe(3);
    await cache.get('a', read(1));
    expect(reads).toBe(4);
    await cache.get('d', read(5)); // past the weight (2 + 5 > 5): a and c go
    await cache.get('a', read(1));
    expect(reads).toBe(6);
    // Replacing a stale entry does not count its old weight twice.
    let clock = 0;
    const heavy = ttlCache<number[]>({ ttlMs: 10, maxWeight: 4, weigh: (v) => v.length, now: () => clock });
    let heavyReads = 0;
    await heavy.get('x', async () => (heavyReads++, [1, 2, 3]));
    clock = 8;
    await heavy.get('y', async () => (heavyReads++, [1]));
    clock = 12;
    await heavy.get('x', async () => (heavyReads++, [1, 2, 3])); // stale: read again; 1 + 3 fits, y stays
    await heavy.get('y', async () => (heavyReads++, [1]));
    expect(heavyReads).toBe(3);
  });
});

describe('memoise', () => {
  it('makes the value once, shares it, and makes it again after reset', async () => {
    let made = 0;
    const value = memoise(async () => ++made);
    const [a, b] = await Promise.all([value(), value()]);
    expect([a, b, made]).toEqual([1, 1, 1]);
    value.reset();
    expect(await value()).toBe(2);
  });

  it('can reset itself when a run settles (one run shared by callers that arrive while it runs)', async () => {
    let runs = 0;
    const run = memoise(() => Promise.resolve(++runs).finally(() => run.reset()));
    const [a, b] = await Promise.all([run(), run()]);
    expect([a, b]).toEqual([1, 1]);
    expect(await run()).toBe(2);
  });
});
