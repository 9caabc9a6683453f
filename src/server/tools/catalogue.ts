// The catalogue in memory, newest first, as the storefront reads it (GET /api/tools, a tool, /tools pages).
// A stock change names its tools (changes.ts), and only those rows are read again and patched into a new
// list; the whole catalogue is read again only for a change of the catalogue itself (a tool added, edited,
// deleted), a stock change that did not say which tools, or after TTL_MS (a safety net for a missed
// announcement). So while orders flow, reads cost a small query per burst of orders, not a full rebuild
// per order (issue 30).
//
// Exact: a read that starts after a change was announced waits for the rows read after it, so it never
// shows a count older than the committed one.
import type { Tool } from '../../lib/entities.ts';

export interface Catalogue {
  /** The current list (a new array after every change: callers may key their own caches on it). */
  list(): Promise<Tool[]>;
  /** One tool, from the current list. */
  tool(id: string): Promise<Tool | undefined>;
  /** Read these tools again before the next answer. */
  stockChanged(ids: readonly string[]): void;
  /** Read everything again before the next answer. */
  drop(): void;
}

interface Held {
  tools: Tool[];
  /** Position of each tool in `tools`. */
  at: Map<string, number>;
  loadedAt: number;
}

export function catalogue({
  load,
  ttlMs,
  kept,
  now = Date.now,
}: {
  /** Reads the given tools (all, newest first, without `ids`). */
  load: (ids?: string[]) => Promise<Tool[]>;
  ttlMs: number;
  /** Called with each full list as it is kept. */
  kept?: (tools: Tool[]) => void;
  now?: () => number;
}): Catalogue {
  let held: Held | undefined;
  /** Tools to read again before the next answer. */
  const stale = new Set<string>();
  /** Bumped by drop(): a full read that started before it is not kept. */
  let generation = 0;
  let work: Promise<void> | undefined;

  const index = (tools: Tool[]) => new Map(tools.map((t, i) => [t._id, i]));

  async function readAll() {
    const started = generation;
    stale.clear();
    const tools = await load();
    if (started !== generation) return;
    held = { tools, at: index(tools), loadedAt: now() };
    kept?.(tools);
  }

  async function patch(current: Held) {
    const ids = [...stale];
    stale.clear();
    const started = generation;
    const rows = await load(ids);
    if (started !== generation || held !== current) return;
    // A tool gone or not yet known: the catalogue itself changed, and its own announcement is coming;
    // read it all now rather than show a list that is wrong until then.
    if (rows.length !== ids.length || rows.some((t) => !current.at.has(t._id))) {
      held = undefined;
      return;
    }
    const tools = current.tools.slice();
    for (const tool of rows) tools[current.at.get(tool._id)!] = tool;
    held = { tools, at: current.at, loadedAt: current.loadedAt };
  }

  async function list(): Promise<Tool[]> {
    for (;;) {
      if (work) {
        await work;
        continue;
      }
      if (held && now() - held.loadedAt <= ttlMs && !stale.size) return held.tools;
      work = (held && now() - held.loadedAt <= ttlMs ? patch(held) : readAll()).finally(() => {
        work = undefined;
      });
    }
  }

  return {
    list,
    async tool(id) {
      const tools = await list();
      const at = held?.tools === tools ? held.at.get(id) : tools.findIndex((t) => t._id === id);
      return at === undefined || at < 0 ? undefined : tools[at];
    },
    stockChanged(ids) {
      // Also while a full read is under way: it may have started before this change committed.
      for (const id of ids) stale.add(id);
    },
    drop() {
      held = undefined;
      stale.clear();
      generation++;
    },
  };
}
