// The event outbox (issue 25): an event is written with its change or not at all; every delivery is
// handled once per consumer, by one of several workers (servers) at once; a failure is retried with
// backoff and stays visible; a worker that stops mid-way loses nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../src/server/db/client';
import { openDb } from '../../src/server/db/open';
import { emit, eventsAbout, type StoredEvent } from '../../src/server/events/events.service';
import { backoffMs, outbox, type Consumer } from '../../src/server/events/outbox';
import { createTestRuntime, type TestRuntime } from './harness';

let runtime: TestRuntime;
let second: Db;
beforeAll(async () => {
  runtime = await createTestRuntime();
  // A second server: its own connections to the same database (PGlite has one process, so the same handle).
  if (runtime.db.kind === 'postgres') {
    const [{ schema }] = await runtime.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    second = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL, schema });
  } else second = runtime.db;
});
afterAll(async () => {
  if (second !== runtime.db) await second.close();
  await runtime.close();
});

let serial = 0;
const subject = () => `subject-${Date.now()}-${++serial}`;

/** A consumer that records what it handled (by every worker sharing it), failing as told. */
function recorder(name = 'email', failTimes = 0) {
  const handled: StoredEvent[] = [];
  let failures = failTimes;
  const consumer: Consumer = {
    name,
    async handle(events) {
      const failed = new Map<number, Error>();
      for (const event of events) {
        if (failures > 0) {
          failures--;
          failed.set(event.seq, new Error('the mail server is away'));
          continue;
        }
        await new Promise((r) => setTimeout(r, 2));
        handled.push(event);
      }
      return failed;
    },
  };
  return { consumer, handled };
}

const delivery = async (seq: number) =>
  (
    await runtime.db.query<{ state: string; attempts: number; last_error: string | null; next_at: string }>(
      `SELECT state, attempts, last_error, next_at FROM event_deliveries WHERE event_seq = $1 AND consumer = 'email'`,
      [seq],
    )
  )[0];

describe('events are written with their change', () => {
  it('a rolled-back change leaves no event and no delivery; a committed one leaves both', async () => {
    const about = subject();
    await expect(
      runtime.db.transaction(async (tx) => {
        await emit(tx, { type: 'order.placed', subject: about, actor: 'a@b.co', data: { total: 1 } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await eventsAbout(runtime.db, about)).toEqual([]);
    const seq = await runtime.db.transaction((tx) =>
      emit(tx, { type: 'order.placed', subject: about, actor: 'a@b.co', data: { total: 1 } }),
    );
    const [event] = await eventsAbout(runtime.db, about);
    expect(event).toMatchObject({ seq, type: 'order.placed', subject: about, actor: 'a@b.co', data: { total: 1 } });
    expect(await delivery(seq)).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('an event no consumer acts on gets no delivery', async () => {
    const seq = await runtime.db.transaction((tx) =>
      emit(tx, { type: 'tool.added', subject: subject(), actor: 'admin@x.co' }),
    );
    expect(await delivery(seq)).toBeUndefined();
  });
});

describe('the outbox worker', () => {
  it('hands every event to its consumer once, in order, with three workers at once', async () => {
    await drain();
    const seqs: number[] = [];
    for (let i = 0; i < 60; i++)
      seqs.push(
        await runtime.db.transaction((tx) => emit(tx, { type: 'order.paid', subject: subject(), data: { i } })),
      );
    const { consumer, handled } = recorder();
    const workers = [
      outbox(runtime.db, [consumer], { batch: 5 }),
      outbox(second, [consumer], { batch: 5 }),
      outbox(second, [consumer], { batch: 7 }),
    ];
    await Promise.all(workers.map((w) => w.run()));
    const mine = handled.filter((e) => seqs.includes(e.seq)).map((e) => e.seq);
    expect(mine.length).toBe(60);
    expect(new Set(mine).size).toBe(60);
    for (const seq of seqs) expect((await delivery(seq)).state).toBe('done');
  });

  it('retries a failure with backoff, keeping the attempts and the error visible, then delivers it once', async () => {
    await drain();
    const seq = await runtime.db.transaction((tx) => emit(tx, { type: 'order.shipped', subject: subject() }));
    const { consumer, handled } = recorder('email', 2);
    const worker = outbox(runtime.db, [consumer]);
    await worker.run();
    expect(await delivery(seq)).toMatchObject({ state: 'pending', attempts: 1, last_error: 'the mail server is away' });
    // Not due yet: a run now does nothing.
    await worker.run();
    expect((await delivery(seq)).attempts).toBe(1);
    const due = () => runtime.db.query(`UPDATE event_deliveries SET next_at = now() WHERE event_seq = $1`, [seq]);
    await due();
    await worker.run();
    expect(await delivery(seq)).toMatchObject({ state: 'pending', attempts: 2 });
    await due();
    await worker.run();
    expect(await delivery(seq)).toMatchObject({ state: 'done', attempts: 3, last_error: null });
    expect(handled.map((e) => e.seq)).toEqual([seq]);
    expect([1, 2, 3, 6, 7, 50].map(backoffMs)).toEqual([2000, 4000, 8000, 60_000, 60_000, 60_000]);
  });

  it('in one batch, a failed event waits its backoff while the others are done; a consumer that throws fails the whole batch', async () => {
    await drain();
    const seqs: number[] = [];
    for (let i = 0; i < 3; i++)
      seqs.push(await runtime.db.transaction((tx) => emit(tx, { type: 'order.shipped', subject: subject() })));
    const { consumer, handled } = recorder('email', 1);
    await outbox(runtime.db, [consumer]).run();
    expect(await delivery(seqs[0])).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_error: 'the mail server is away',
    });
    for (const seq of seqs.slice(1)) expect(await delivery(seq)).toMatchObject({ state: 'done', attempts: 1 });
    expect(handled.map((e) => e.seq)).toEqual(seqs.slice(1));

    await drain();
    const more = [
      await runtime.db.transaction((tx) => emit(tx, { type: 'order.shipped', subject: subject() })),
      await runtime.db.transaction((tx) => emit(tx, { type: 'order.shipped', subject: subject() })),
    ];
    const broken: Consumer = { name: 'email', handle: () => Promise.reject(new Error('the database went away')) };
    await outbox(runtime.db, [broken]).run();
    for (const seq of more)
      expect(await delivery(seq)).toMatchObject({
        state: 'pending',
        attempts: 1,
        last_error: 'the database went away',
      });
  });

  it('a worker that stopped after leasing (a crash between commit and send) loses nothing: the lease runs out and another delivers', async () => {
    await drain();
    const seq = await runtime.db.transaction((tx) => emit(tx, { type: 'order.delivered', subject: subject() }));
    // The crashed worker: it leased the row and never came back.
    const crashed = outbox(runtime.db, [{ name: 'email', handle: () => new Promise(() => {}) }], { leaseMs: 300 });
    void crashed.run();
    await expect.poll(async () => (await delivery(seq)).attempts).toBe(1);
    const { consumer, handled } = recorder();
    const restarted = outbox(second, [consumer], { leaseMs: 300 });
    await restarted.run();
    expect(handled).toEqual([]); // still leased
    await new Promise((r) => setTimeout(r, 400));
    await restarted.run();
    expect(handled.map((e) => e.seq)).toEqual([seq]);
    expect((await delivery(seq)).state).toBe('done');
  });
});

/** Marks earlier tests' deliveries done, so each test sees only its own. */
async function drain() {
  await runtime.db.query(`UPDATE event_deliveries SET state = 'done' WHERE state = 'pending'`);
}
