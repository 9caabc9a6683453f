// The statements over events and the delivery rows written with them (event_deliveries, webhook_deliveries).
// events.service.ts owns the rules: which consumers and webhook types an event goes to.
import type { WebhookEvent } from '../../lib/webhooks.ts';
import type { Queryable } from '../db/client.ts';

export interface EventRow {
  seq: number | string;
  type: string;
  subject: string;
  actor: string | null;
  data: unknown;
  at: string | Date;
}

/** An event as written: its type, subject, actor (null: the store itself) and data. */
export interface EventInsert {
  type: string;
  subject: string;
  actor: string | null;
  data: Record<string, unknown>;
}

/**
 * The part of an event's statement that writes a delivery per webhook endpoint subscribed to `hook`
 * (`$param`: the webhook type), from the `written` events; none for a type no webhook sends. Paused
 * endpoints get theirs too: they wait for the endpoint to be resumed.
 */
const webhookDeliveries = (hook: WebhookEvent | undefined, param: number): string =>
  hook
    ? `, hooked AS (
         INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, type)
         SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, written.seq, $${param}
           FROM written, webhook_endpoints e WHERE e.state <> 'deleted' AND $${param} = ANY (e.events))`
    : '';

/**
 * One statement: the event, a delivery per consumer of `consumers` and per webhook endpoint subscribed to
 * `hook` (none: no row). Returns the event's sequence number.
 */
export const insertEvent = async (
  tx: Queryable,
  event: EventInsert,
  consumers: string[],
  hook: WebhookEvent | undefined,
) =>
  (
    await tx.query<{ seq: number }>(
      `WITH written AS (INSERT INTO events (type, subject, actor, data) VALUES ($1, $2, $3, $4) RETURNING seq),
       delivered AS (INSERT INTO event_deliveries (event_seq, consumer) SELECT seq, unnest($5::text[]) FROM written)
       ${webhookDeliveries(hook, 6)}
     SELECT seq FROM written`,
      [event.type, event.subject, event.actor, JSON.stringify(event.data), consumers, ...(hook ? [hook] : [])],
    )
  )[0].seq;

/** Many events of one type, with their deliveries as insertEvent writes them, in one statement. */
export const insertEvents = (
  tx: Queryable,
  type: string,
  events: Omit<EventInsert, 'type'>[],
  consumers: string[],
  hook: WebhookEvent | undefined,
) =>
  tx.query(
    `WITH written AS (
       INSERT INTO events (type, subject, actor, data)
       SELECT $1, subject, actor, data::jsonb FROM unnest($2::text[], $3::text[], $4::text[]) AS e(subject, actor, data)
       RETURNING seq),
       delivered AS (INSERT INTO event_deliveries (event_seq, consumer) SELECT written.seq, c FROM written, unnest($5::text[]) AS c)
       ${webhookDeliveries(hook, 6)}
     SELECT count(*) FROM written`,
    [
      type,
      events.map((e) => e.subject),
      events.map((e) => e.actor),
      events.map((e) => JSON.stringify(e.data)),
      consumers,
      ...(hook ? [hook] : []),
    ],
  );

const EVENT_COLUMNS = `seq, type, subject, actor, data, at`;

/** Every event about one subject, oldest first. */
export const selectEventsAbout = (db: Queryable, subject: string) =>
  db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE subject = $1 ORDER BY seq`, [subject]);

/** Events by their sequence numbers, in that order. */
export const selectEventsBySeq = (db: Queryable, seqs: number[]) =>
  db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE seq = ANY($1) ORDER BY seq`, [seqs]);
