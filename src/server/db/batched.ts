// Calls that arrive together, answered by one piece of work: the signed-in user lookups of a rush, their
// rate-limit hits, the one-tool orders. The first call waits for the next turn of the event loop, so the
// calls of requests that arrived together share one query (or transaction); calls made while it runs form
// the next batch. Each call still sees the database as it was after its request arrived.
//
// Buyers of a rush arrive on connections of their own, a millisecond or so apart, not in one turn: each
// would get a batch (a transaction) of its own, and on PGlite, whose statements hold the event loop, the
// next ones would wait behind them (the first 200-buyer rush after a start took 628 ms at p99, 199
// transactions). So while other requests are being answered (`gather.when`), a batch waits `gather.ms`
// for the rest of the burst, as PostgreSQL's commit_delay waits for sibling transactions. A lone request,
// or one client's calls one after another, never waits.

export interface Gather {
  ms: number;
  when: () => boolean;
}

/**
 * A function of one item whose calls are run `maxBatch` at a time by `run`, which answers each item at its
 * index. A batch that fails rejects every call in it, and only those.
 */
export function batched<T, R>(
  run: (items: T[]) => Promise<R[]>,
  { maxBatch = Infinity, gather }: { maxBatch?: number; gather?: Gather } = {},
): (item: T) => Promise<R> {
  const waiting: { item: T; done: (result: R) => void; fail: (error: unknown) => void }[] = [];
  let running = false;
  async function drain() {
    try {
      while (waiting.length) {
        const batch = waiting.splice(0, maxBatch);
        try {
          const results = await run(batch.map((w) => w.item));
          batch.forEach((w, i) => w.done(results[i]));
        } catch (error) {
          for (const w of batch) w.fail(error);
        }
      }
    } finally {
      running = false;
    }
  }
  return (item) =>
    new Promise<R>((done, fail) => {
      waiting.push({ item, done, fail });
      if (!running) {
        running = true;
        if (gather?.when()) setTimeout(() => void drain(), gather.ms);
        else setImmediate(() => void drain());
      }
    });
}
