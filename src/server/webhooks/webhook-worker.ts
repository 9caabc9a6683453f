// The webhook worker: sends each delivery row (one event to one endpoint, written with the event) and
// keeps what came of it. Every server runs one; a row is leased (`FOR UPDATE SKIP LOCKED`, one short
// statement) by exactly one of them, so each event reaches each endpoint once across servers, and a
// lease a stopped process left runs out so nothing committed is lost.
//
// - Apart from the outbox (emails): a slow receiver never holds up anything else. Attempts run
//   concurrently, at most CONCURRENCY per process and PER_ENDPOINT per endpoint across servers, each
//   within TIMEOUT_MS; a free slot takes the next due row at once.
// - A failed attempt waits its turn in WEBHOOK_RETRY_WAITS_MS (with jitter); the webhook-id stays.
// - A delivery out of attempts (more than a day of them) is given up; if nothing reached its endpoint in
//   all that time, the endpoint is paused with the reason, until an admin resumes it. Never deleted.
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_WAITS_MS, type WebhookEvent } from '../../lib/webhooks.ts';
import type { Db } from '../db/client.ts';
import { emit, eventsBySeq } from '../events/events.service.ts';
import { logger } from '../observability/logger.ts';
import { metrics } from '../observability/metrics.ts';
import { traced } from '../observability/tracing.ts';
import type { GuardOptions } from './address-guard.ts';
import { webhookBody } from './payload.ts';
import { postWebhook, type Attempt } from './send.ts';
import { sign, type SecretBox } from './signing.ts';

export interface WebhookWorkerOptions {
  guard: GuardOptions;
  box: SecretBox;
  concurrency?: number;
  perEndpoint?: number;
  timeoutMs?: number;
  pollMs?: number;
  /** 0..1, for the jitter (tests pin it). */
  random?: () => number;
}

const CONCURRENCY = 8;
const PER_ENDPOINT = 2;
const TIMEOUT_MS = 10_000;
const POLL_MS = 1000;

/** The wait before attempt `attempts + 1`, stretched by 0–20 % so retries that failed together spread out. */
export const retryWaitMs = (attempts: number, random = Math.random): number =>
  Math.round(WEBHOOK_RETRY_WAITS_MS[Math.min(attempts, WEBHOOK_RETRY_WAITS_MS.length) - 1] * (1 + 0.2 * random()));

interface Claimed {
  id: string;
  endpoint_id: string;
  event_seq: number;
  type: WebhookEvent;
  attempts: number;
}

const span = (ms: number) =>
  ms < 120_000
    ? `${Math.round(ms / 1000)} s`
    : ms < 7_200_000
      ? `${Math.round(ms / 60_000)} min`
      : `${Math.round(ms / 3_600_000)} hours`;

export function webhookWorker(db: Db, options: WebhookWorkerOptions) {
  const concurrency = options.concurrency ?? CONCURRENCY;
  const perEndpoint = options.perEndpoint ?? PER_ENDPOINT;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  // Past the attempt's own deadline with room to write its outcome: a live worker never loses its lease.
  const leaseMs = timeoutMs + 30_000;
  const random = options.random ?? Math.random;
  const inFlight = new Set<Promise<void>>();
  let filling: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  /** Calls of run() under way: a finished attempt takes the next row for them too. */
  let runs = 0;
  let timer: NodeJS.Timeout | undefined;

  /** Leases up to `limit` due deliveries of active endpoints, at most `perEndpoint` under way per endpoint. */
  async function claim(limit: number): Promise<Claimed[]> {
    return db.query<Claimed>(
      `WITH due AS (
         SELECT d.id FROM webhook_endpoints e
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS busy FROM webhook_deliveries b
            WHERE b.endpoint_id = e.id AND b.state = 'pending' AND b.lease_until > now()) busy
         CROSS JOIN LATERAL (
           SELECT w.id FROM webhook_deliveries w
            WHERE w.endpoint_id = e.id AND w.state = 'pending' AND w.next_at <= now() AND (w.lease_until IS NULL OR w.lease_until <= now())
            ORDER BY w.next_at LIMIT greatest($2 - busy.busy, 0) FOR UPDATE OF w SKIP LOCKED) d
         WHERE e.state = 'active'
         LIMIT $1)
       UPDATE webhook_deliveries d
          SET lease_until = now() + $3 * interval '1 millisecond', attempts = d.attempts + 1, first_at = coalesce(d.first_at, now())
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.endpoint_id, d.event_seq, d.type, d.attempts`,
      [limit, perEndpoint, leaseMs],
    );
  }

  async function delivered(id: string, attempt: Attempt) {
    await db.query(
      `WITH d AS (
         UPDATE webhook_deliveries SET state = 'delivered', lease_until = NULL, last_at = now(), last_status = $2, last_ms = $3, last_error = NULL
          WHERE id = $1 RETURNING endpoint_id)
       UPDATE webhook_endpoints e SET last_success_at = now() FROM d WHERE e.id = d.endpoint_id`,
      [id, attempt.status, attempt.ms],
    );
    metrics.webhookAttempt('delivered');
  }

  async function failed(delivery: Claimed, attempt: Attempt) {
    const outcome = [delivery.id, attempt.status ?? null, attempt.ms, attempt.error ?? 'failed'];
    logger.warn(
      { delivery: delivery.id, endpoint: delivery.endpoint_id, attempts: delivery.attempts, err: attempt.error },
      'webhook attempt failed',
    );
    if (delivery.attempts < WEBHOOK_MAX_ATTEMPTS) {
      await db.query(
        `UPDATE webhook_deliveries SET lease_until = NULL, last_at = now(), last_status = $2, last_ms = $3, last_error = $4,
                next_at = now() + $5 * interval '1 millisecond'
          WHERE id = $1`,
        [...outcome, retryWaitMs(delivery.attempts, random)],
      );
      metrics.webhookAttempt('failed');
      return;
    }
    // Out of attempts: given up, and the endpoint paused if nothing reached it since this one was first tried.
    await db.transaction(async (tx) => {
      const [gone] = await tx.query<{ first_at: string | Date }>(
        `UPDATE webhook_deliveries SET state = 'failed', lease_until = NULL, last_at = now(), last_status = $2, last_ms = $3, last_error = $4
          WHERE id = $1 RETURNING first_at`,
        outcome,
      );
      const failingFor = Date.now() - new Date(gone?.first_at ?? Date.now()).getTime();
      const reason = `No delivery succeeded for ${span(failingFor)}: ${delivery.attempts} attempts of one event failed, the last with ${attempt.error ?? 'no answer'}`;
      const [paused] = await tx.query<{ url: string }>(
        `UPDATE webhook_endpoints SET state = 'paused', paused_reason = $2, paused_at = now()
          WHERE id = $1 AND state = 'active' AND (last_success_at IS NULL OR last_success_at < $3) RETURNING url`,
        [delivery.endpoint_id, reason.slice(0, 1000), gone?.first_at ?? new Date()],
      );
      if (paused) {
        logger.warn({ endpoint: delivery.endpoint_id, reason }, 'webhook endpoint paused');
        await emit(tx, {
          type: 'webhook.paused',
          subject: delivery.endpoint_id,
          actor: null,
          data: { target: paused.url, reason },
        });
      }
    });
    metrics.webhookAttempt('gave_up');
  }

  /** One attempt of one leased delivery, its outcome written. */
  async function attempt(delivery: Claimed): Promise<void> {
    const [[endpoint], [event]] = await Promise.all([
      db.query<{ url: string; secret: string; state: string }>(
        'SELECT url, secret, state FROM webhook_endpoints WHERE id = $1',
        [delivery.endpoint_id],
      ),
      eventsBySeq(db, [Number(delivery.event_seq)]),
    ]);
    if (endpoint?.state !== 'active') {
      // Paused or deleted since the lease was taken: this was no attempt; the row waits as it was.
      await db.query(
        `UPDATE webhook_deliveries SET lease_until = NULL, attempts = attempts - 1, first_at = CASE WHEN attempts = 1 THEN NULL ELSE first_at END
          WHERE id = $1`,
        [delivery.id],
      );
      return;
    }
    let result: Attempt;
    try {
      const body = webhookBody(event, delivery.type);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Ironcrest-Webhooks/1.0',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(options.box.open(endpoint.secret), delivery.id, timestamp, body),
      };
      result = await postWebhook(endpoint.url, body, headers, { ...options.guard, timeoutMs });
    } catch (error) {
      result = { ok: false, ms: 0, error: (error as Error).message };
    }
    if (result.ok) await delivered(delivery.id, result);
    else await failed(delivery, result);
  }

  function launch(delivery: Claimed) {
    // One trace per attempt: the send (its address checks, the receiver's answer) and the rows it writes.
    const attributes = {
      'webhook.delivery': delivery.id,
      'webhook.event': delivery.type,
      'webhook.endpoint': delivery.endpoint_id,
    };
    const running: Promise<void> = traced('webhook attempt', attributes, () => attempt(delivery))
      .catch((error: Error) =>
        logger.warn({ err: error.message, delivery: delivery.id }, 'webhook attempt could not be recorded'),
      )
      .finally(() => {
        inFlight.delete(running);
        if (!stopped || runs > 0) void fill();
      });
    inFlight.add(running);
  }

  /** Takes due rows while slots are free (once at a time in this process; a call meanwhile looks again after). */
  function fill(): Promise<void> {
    if (filling) {
      again = true;
      return filling;
    }
    filling = (async () => {
      do {
        again = false;
        while (inFlight.size < concurrency) {
          const claimed = await claim(concurrency - inFlight.size);
          if (!claimed.length) break;
          claimed.forEach(launch);
        }
      } while (again);
    })()
      .catch((error: Error) => logger.warn({ err: error.message }, 'webhook run failed; trying again at the next poll'))
      .finally(() => {
        filling = undefined;
      });
    return filling;
  }

  return {
    /** Sends everything due now and waits for the outcomes (tests; the running worker does this by itself). */
    async run(): Promise<void> {
      runs++;
      try {
        await fill();
        while (inFlight.size || filling) await Promise.race([...inFlight, ...(filling ? [filling] : [])]);
      } finally {
        runs--;
      }
    },
    /** A delivery became due here (an event committed, a replay, a resume): look now, not at the next poll. */
    nudge() {
      if (!stopped) void fill();
    },
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(() => void fill(), options.pollMs ?? POLL_MS);
      timer.unref();
      void fill();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await filling;
      await Promise.all([...inFlight]);
    },
  };
}
export type WebhookWorker = ReturnType<typeof webhookWorker>;
