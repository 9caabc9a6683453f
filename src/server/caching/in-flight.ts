// Copies being made: a page Astro renders (host/live-pages.ts), an answer the API computes
// (host/public-reads.ts). A request that misses a stale copy while its next one is being made waits for
// that one instead of making it again, so while orders flow a page is made once per change, not once per
// request that arrives meanwhile (issue 30). Per process: each server makes its own copies.
import type { ChangeBus, Shows } from './changes.ts';

/** What a copy that names nothing in particular shows: it goes stale on any change. */
export const ANYTHING: Shows = { kinds: ['tools', 'stock', 'reviews'] };

export interface InFlight<C extends { shows?: Shows }> {
  /**
   * Opens the making of `key`'s next copy, from data read from now on. The returned `end` must always be
   * called, with the copy or with nothing (a 404, an error), so that those waiting go on.
   */
  begin(key: string): (copy: C | undefined) => void;
  /**
   * The copy under way for `key`, once made, when it may answer a request arriving now: only when there
   * is a stale copy (so the key shows live data) and the making began after the change that made it stale,
   * and only if no change it shows came between that beginning and this arrival. Undefined: make it.
   */
  wait(key: string, stale: C | undefined): Promise<C | undefined>;
}

export function inFlight<C extends { shows?: Shows }>(
  changes: Pick<ChangeBus, 'version' | 'changedSince'>,
): InFlight<C> {
  /** The latest making of each key. */
  const making = new Map<string, { started: number; copy: Promise<C | undefined> }>();
  const showsOf = (copy: C) => copy.shows ?? ANYTHING;
  return {
    begin(key) {
      let made!: (copy: C | undefined) => void;
      const entry = { started: changes.version, copy: new Promise<C | undefined>((resolve) => (made = resolve)) };
      making.set(key, entry);
      return (copy) => {
        made(copy);
        if (making.get(key) === entry) making.delete(key);
      };
    },
    async wait(key, stale) {
      const entry = making.get(key);
      if (!entry || !stale || changes.changedSince(entry.started, showsOf(stale))) return undefined;
      const arrived = changes.version;
      const copy = await entry.copy;
      return copy && !changes.changedSince(entry.started, showsOf(copy), arrived) ? copy : undefined;
    },
  };
}
