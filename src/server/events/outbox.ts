// The outbox worker: delivers each event's effects (the emails; webhooks have their own worker,
// webhooks/webhook-worker.ts) from the delivery rows written with the event (events.service.ts), once
// per consumer, on PGlite and on PostgreSQL alike.
//
// - A delivery is claimed with a lease (`FOR UPDATE SKIP LOCKED` in one short statement): with several
//   servers on one PostgreSQL, each takes different rows, and no transaction stays open while an email
//   is sent (PGlite has one connection; a transaction held across SMTP would stop the store).
// - Done: the row says so. Failed: it is tried again with backoff (2 s doubling to 60 s), its attempts
//   and last error kept for the admin to see. A process that stops mid-way leaves a lease that runs out
//   (LEASE_MS), and another run (or this one, restarted) takes the row again: nothing committed is lost.
// - A run starts every POLL_MS, and when this process writes an event (`nudge`, which app.ts calls once for
//   all the events committed within 50 ms).
import type { Db } from '../db/client.ts';
import { logger } from '../observability/logger.ts';
import { traced } from '../observability/tracing.ts';
import { eventJson, type StoredEvent } from './events.service.ts';
import type { EventRow } from './events.sql.ts';

export interface Consumer {
  name: string;
  /**
   * Acts on a batch of events, in order. Answers the events that failed (each tried again later); throwing
   * fails the whole batch. Must be safe to run again for the same event.
   */
  handle(events: StoredEvent[]): Promise<Map<number, Error>>;
}

export interface OutboxOptions {
  pollMs?: number;
  leaseMs?: number;
  /** Deliveries one run takes per consumer. */
  batch?: number;
}

const POLL_MS = 1000;
const LEASE_MS = 60_000;
const BACKOFF_MS = [2000, 4000, 8000, 16_000, 32_000, 60_000];

/** How long to wait before attempt `attempts + 1`. */
export const backoffMs = (attempts: number): number =>
  BACKOFF_MS[Math.min(Math.max(attempts - 1, 0), BACKOFF_MS.length - 1)];

export function outbox(
  db: Db,
  consumers: Consumer[],
  { pollMs = POLL_MS, leaseMs = LEASE_MS, batch = 50 }: OutboxOptions = {},
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = true;

  /** Leases the consumer's due deliveries; returns their events, in order, with the attempt each is on. */
  async function claim(consumer: string): Promise<{ event: StoredEvent; attempts: number }[]> {
    const leased = await db.query<EventRow & { attempts: number }>(
      `WITH due AS (
         SELECT event_seq FROM event_deliveries
          WHERE consumer = $1 AND state = 'pending' AND next_at <= now() AND (lease_until IS NULL OR lease_until < now())
          ORDER BY event_seq LIMIT $2 FOR UPDATE SKIP LOCKED),
       leased AS (
         UPDATE event_deliveries d
            SET lease_until = now() + $3 * interval '1 millisecond', attempts = d.attempts + 1
           FROM due WHERE d.event_seq = due.event_seq AND d.consumer = $1
         RETURNING d.event_seq, d.attempts)
       SELECT e.seq, e.type, e.subject, e.actor, e.data, e.at, l.attempts
         FROM leased l JOIN events e ON e.seq = l.event_seq ORDER BY e.seq`,
      [consumer, batch, leaseMs],
    );
    return leased.map((row) => ({ event: eventJson(row), attempts: row.attempts }));
  }

  /** Marks the batch's deliveries done, but for the failed ones, which wait their backoff. */
  async function settle(
    consumer: string,
    claimed: { event: StoredEvent; attempts: number }[],
    failed: Map<number, Error>,
  ) {
    const done = claimed.filter(({ event }) => !failed.has(event.seq)).map(({ event }) => event.seq);
    if (done.length)
      await db.query(
        `UPDATE event_deliveries SET state = 'done', done_at = now(), lease_until = NULL, last_error = NULL
          WHERE event_seq = ANY($1) AND consumer = $2`,
        [done, consumer],
      );
    for (const { event, attempts } of claimed) {
      const error = failed.get(event.seq);
      if (!error) continue;
      logger.warn(
        { err: error.message, consumer, event: event.seq, attempts },
        'event delivery failed; trying again later',
      );
      await db.query(
        `UPDATE event_deliveries SET lease_until = NULL, last_error = $3, next_at = now() + $4 * interval '1 millisecond'
          WHERE event_seq = $1 AND consumer = $2`,
        [event.seq, consumer, error.message.slice(0, 1000), backoffMs(attempts)],
      );
    }
  }

  /** One pass over every consumer's due deliveries, in event order; returns how many it handled. */
  async function runOnce(): Promise<number> {
    let handled = 0;
    for (const consumer of consumers) {
      for (;;) {
        const claimed = await claim(consumer.name);
        if (!claimed.length) break;
        // One trace per batch a consumer takes (its sends and its database work inside).
        const attributes = { 'outbox.consumer': consumer.name, 'outbox.events': claimed.length };
        const failed = await traced(`outbox ${consumer.name}`, attributes, async () => {
          let failures: Map<number, Error>;
          try {
            failures = await consumer.handle(claimed.map(({ event }) => event));
          } catch (error) {
            const failure = error instanceof Error ? error : new Error(String(error));
            failures = new Map(claimed.map(({ event }) => [event.seq, failure]));
          }
          await settle(consumer.name, claimed, failures);
          return failures;
        });
        handled += claimed.length - failed.size;
        if (claimed.length < batch) break;
      }
    }
    return handled;
  }

  /** Runs now, or right after the run under way (never two at once in one process). */
  function run(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = runOnce()
      .catch((error: Error) => {
        logger.warn({ err: error.message }, 'outbox run failed; trying again at the next poll');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  }

  return {
    /** Works through what is due now (tests, and `nudge`). */
    run,
    /** A new event was committed here: deliver it without waiting for the next poll. */
    nudge() {
      if (!stopped) void run();
    },
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(() => void run(), pollMs);
      timer.unref();
      void run();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
export type Outbox = ReturnType<typeof outbox>;
