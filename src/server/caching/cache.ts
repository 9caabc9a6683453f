// The process's in-memory caches, written once: values read from the database and kept for a while
// (ttlCache), and values made once on first use (memoise). HTTP caching (ETags, the outer server's
// copies) is http/cache.ts and public-reads.ts.

export interface TtlCache<V> {
  /** The kept value for `key` when younger than the TTL, else `read()`'s (kept unless dropped meanwhile). */
  get(key: string, read: () => Promise<V>): Promise<V>;
  /** Forgets every value; a read that started before this is answered but not kept. */
  drop(): void;
  /** Forgets these keys' values; a read of any key that started before this is answered but not kept. */
  forget(keys: readonly string[]): void;
}

/**
 * Values kept until `drop()` (a change announced on the bus) or for at most `ttlMs` (a safety net for a
 * missed announcement, or the time another server's write may take to show). A generation counter,
 * bumped by every drop, keeps a read that raced a write from being kept. Bounded by `maxEntries` and,
 * with `weigh`, by `maxWeight` in all: past either, everything kept is forgotten at once.
 */
export function ttlCache<V>({
  ttlMs,
  maxEntries = Infinity,
  maxWeight = Infinity,
  weigh = () => 0,
  kept,
  now = Date.now,
}: {
  ttlMs: number;
  maxEntries?: number;
  maxWeight?: number;
  weigh?: (value: V) => number;
  /** Called with each value as it is kept (not for a read that raced a drop). */
  kept?: (value: V) => void;
  now?: () => number;
}): TtlCache<V> {
  const entries = new Map<string, { value: V; at: number }>();
  let weight = 0;
  let generation = 0;
  const clear = () => {
    entries.clear();
    weight = 0;
  };
  return {
    async get(key, read) {
      const hit = entries.get(key);
      if (hit && now() - hit.at <= ttlMs) return hit.value;
      const started = generation;
      const at = now();
      const value = await read();
      if (started !== generation) return value;
      const old = entries.get(key);
      if (old) {
        weight -= weigh(old.value);
        entries.delete(key);
      }
      const added = weigh(value);
      if (entries.size >= maxEntries || weight + added > maxWeight) clear();
      entries.set(key, { value, at });
      weight += added;
      kept?.(value);
      return value;
    },
    drop() {
      clear();
      generation++;
    },
    forget(keys) {
      for (const key of keys) {
        const old = entries.get(key);
        if (!old) continue;
        weight -= weigh(old.value);
        entries.delete(key);
      }
      // A read under way may have read a key before the change: it is not kept (whichever key it was for).
      generation++;
    },
  };
}

export type Memoised<T> = (() => T) & {
  /** Forgets the value: the next call makes it again. */
  reset(): void;
};

/**
 * `make()`'s value, made on the first call and shared by every call after until `reset()`. With a
 * promise, callers that arrive while it runs share the one run (a rejected one is kept too, until reset).
 */
export function memoise<T>(make: () => T): Memoised<T> {
  let made: { value: T } | undefined;
  const get = () => (made ??= { value: make() }).value;
  return Object.assign(get, {
    reset() {
      made = undefined;
    },
  });
}

/**
 * The key of the copy used longest ago, in a map whose copies stamp their last use: searched only when a
 * new copy passes its budget (a miss), so a hit costs one stamp and no reordering.
 */
export function leastRecentlyUsed(copies: ReadonlyMap<string, { used: number }>): string | undefined {
  let oldest: string | undefined;
  let stamp = Infinity;
  for (const [key, copy] of copies)
    if (copy.used < stamp) {
      stamp = copy.used;
      oldest = key;
    }
  return oldest;
}
