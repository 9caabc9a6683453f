// The in-memory catalogue (src/server/tools/catalogue.ts): a stock change reads only its tools again,
// and a read that starts after a change never shows what was there before it.
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/lib/entities';
import { catalogue } from '../../src/server/tools/catalogue';

const tool = (id: string, availableQuantity: number): Tool => ({
  _id: id,
  name: `Tool ${id}`,
  img: '/x.svg',
  description: 'A tool.',
  minimumOrderQuantity: 1,
  availableQuantity,
  price: 10,
  priceBreaks: [],
  packSize: 1,
  quoteAbove: null,
});

/** A "database" of tools, newest first, that counts and can hold its reads. */
function fakeDb(ids: string[]) {
  const stock = new Map(ids.map((id) => [id, 10]));
  const reads: (string[] | 'all')[] = [];
  let gate: Promise<void> | undefined;
  return {
    stock,
    reads,
    hold() {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = undefined;
        open();
      };
    },
    async load(only?: string[]): Promise<Tool[]> {
      reads.push(only ?? 'all');
      // The rows are read when the query starts; the answer may arrive later.
      const rows = [...stock].filter(([id]) => !only || only.includes(id)).map(([id, q]) => tool(id, q));
      await gate;
      return rows;
    },
  };
}

describe('the catalogue in memory', () => {
  it('reads everything once, then only the tools a stock change names, in a new list', async () => {
    const db = fakeDb(['c', 'b', 'a']);
    const cat = catalogue({ load: db.load, ttlMs: 60_000 });
    const first = await cat.list();
    expect(first.map((t) => t._id)).toEqual(['c', 'b', 'a']);
    expect(await cat.list()).toBe(first);
    db.stock.set('b', 7);
    cat.stockChanged(['b']);
    const second = await cat.list();
    expect(second).not.toBe(first);
    expect(second.map((t) => t.availableQuantity)).toEqual([10, 7, 10]);
    expect(second[0]).toBe(first[0]); // untouched tools are the same objects (serialised once)
    expect((await cat.tool('b'))?.availableQuantity).toBe(7);
    expect(await cat.tool('nope')).toBeUndefined();
    expect(db.reads).toEqual(['all', ['b']]);
  });

  it('readers that arrive together share one read', async () => {
    const db = fakeDb(['a', 'b']);
    const cat = catalogue({ load: db.load, ttlMs: 60_000 });
    await cat.list();
    db.stock.set('a', 3);
    cat.stockChanged(['a']);
    const answers = await Promise.all(Array.from({ length: 20 }, () => cat.tool('a')));
    expect(answers.every((t) => t?.availableQuantity === 3)).toBe(true);
    expect(db.reads).toEqual(['all', ['a']]);
  });

  it('a change announced while a read is under way is not lost: the next read reads that tool again', async () => {
    const db = fakeDb(['a', 'b']);
    const cat = catalogue({ load: db.load, ttlMs: 60_000 });
    await cat.list();
    cat.stockChanged(['a']);
    const open = db.hold();
    const during = cat.list(); // reads a's row (10) and waits
    db.stock.set('a', 4); // an order commits…
    cat.stockChanged(['a']); // …and is announced while that read is under way
    open();
    await during;
    expect((await cat.tool('a'))?.availableQuantity).toBe(4);
  });

  it('the same during the very first full read', async () => {
    const db = fakeDb(['a']);
    const cat = catalogue({ load: db.load, ttlMs: 60_000 });
    const open = db.hold();
    const during = cat.list();
    db.stock.set('a', 2);
    cat.stockChanged(['a']);
    open();
    await during;
    expect((await cat.tool('a'))?.availableQuantity).toBe(2);
  });

  it('a tool the patch cannot find (deleted, or new) makes it read everything', async () => {
    const db = fakeDb(['a', 'b']);
    const cat = catalogue({ load: db.load, ttlMs: 60_000 });
    await cat.list();
    db.stock.delete('b');
    cat.stockChanged(['b']);
    expect((await cat.list()).map((t) => t._id)).toEqual(['a']);
    expect(db.reads).toEqual(['all', ['b'], 'all']);
  });

  it('drop() and the TTL read everything again', async () => {
    let clock = 0;
    const db = fakeDb(['a']);
    const cat = catalogue({ load: db.load, ttlMs: 1000, now: () => clock });
    await cat.list();
    cat.drop();
    await cat.list();
    clock = 2000;
    await cat.list();
    expect(db.reads).toEqual(['all', 'all', 'all']);
  });
});
