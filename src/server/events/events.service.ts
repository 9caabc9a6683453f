// Domain events: what happened to an order, a tool, a user, a review, written in the same transaction as
// the change it describes (so there is never a change without its event, or an event without its
// change). Each event also gets a delivery row per consumer that acts on its type (emails), which the
// outbox worker (outbox.ts) works through, and one per webhook endpoint subscribed to it (webhooks/),
// which the webhook worker sends. The table is append-only: the order history and the admins' audit log
// are read from it, and no API call edits or deletes it.
import type { WebhookEvent } from '../../lib/webhooks.ts';
import type { Queryable } from '../db/client.ts';

export type EventType =
  | 'order.placed'
  | 'order.paid'
  | 'order.shipped'
  | 'order.delivered'
  | 'order.cancelled'
  | 'order.refunded'
  | 'user.made_admin'
  | 'user.deleted'
  | 'tool.added'
  | 'tool.deleted'
  | 'tool.restocked'
  | 'tool.updated'
  | 'tools.imported'
  // One per tool an import made or changed (beside its one 'tools.imported' audit event): for webhooks.
  | 'tool.added_by_import'
  | 'tool.updated_by_import'
  | 'quote.requested'
  | 'quote.answered'
  | 'quote.accepted'
  | 'quote.declined'
  | 'settings.updated'
  | 'discount.created'
  | 'discount.removed'
  | 'review.hidden'
  | 'review.shown'
  | 'contact.received'
  | 'stock.low'
  | 'webhook.created'
  | 'webhook.deleted'
  | 'webhook.resumed'
  | 'webhook.replayed'
  | 'webhook.paused';

export interface NewEvent {
  type: EventType;
  /** What it is about: an order id, a tool id, a user's email, a review id, a message id. */
  subject: string;
  /** Who did it (an email); null when the store itself did (a hold that ran out). */
  actor?: string | null;
  /** The details consumers need, and for admin actions the before → after of what changed. */
  data?: Record<string, unknown>;
}

export interface StoredEvent extends Required<NewEvent> {
  seq: number;
  at: string;
}

/** Which consumers act on which events: each gets its own delivery row, handled once. */
const CONSUMERS: Record<string, ReadonlySet<EventType>> = {
  email: new Set<EventType>([
    'order.placed',
    'order.paid',
    'order.shipped',
    'order.delivered',
    'order.cancelled',
    'order.refunded',
    'contact.received',
    'stock.low',
    'quote.requested',
    'quote.answered',
  ]),
};

/** The consumers that act on this type of event. */
export const consumersOf = (type: EventType): string[] =>
  Object.entries(CONSUMERS)
    .filter(([, types]) => types.has(type))
    .map(([name]) => name);

/** The webhook event (src/lib/webhooks.ts) each of ours is sent as; the others are not sent. */
const WEBHOOK_TYPES: Partial<Record<EventType, WebhookEvent>> = {
  'order.placed': 'order.placed',
  'order.paid': 'order.paid',
  'order.shipped': 'order.shipped',
  'order.delivered': 'order.delivered',
  'order.refunded': 'order.refunded',
  'order.cancelled': 'order.cancelled',
  'tool.added': 'tool.created',
  'tool.added_by_import': 'tool.created',
  'tool.updated': 'tool.updated',
  'tool.restocked': 'tool.updated',
  'tool.updated_by_import': 'tool.updated',
  'tool.deleted': 'tool.deleted',
  'stock.low': 'stock.low',
};

export const webhookTypeOf = (type: EventType): WebhookEvent | undefined => WEBHOOK_TYPES[type];

/**
 * The part of an event's statement that writes a delivery per webhook endpoint subscribed to `type`
 * (`$param`: the webhook type), from the `written` events; none for a type no webhook sends. Paused
 * endpoints get theirs too: they wait for the endpoint to be resumed.
 */
const webhookDeliveries = (type: EventType, param: number): string =>
  webhookTypeOf(type)
    ? `, hooked AS (
         INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, type)
         SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, written.seq, $${param}
           FROM written, webhook_endpoints e WHERE e.state <> 'deleted' AND $${param} = ANY (e.events))`
    : '';

/**
 * Writes the event (and its deliveries) inside the caller's transaction: call it with the `tx` that
 * makes the change. Returns the event's sequence number.
 */
export async function emit(tx: Queryable, event: NewEvent): Promise<number> {
  // One statement: the event, a delivery per consumer that acts on it and per webhook endpoint subscribed
  // to it (none: no row).
  const hook = webhookTypeOf(event.type);
  const [{ seq }] = await tx.query<{ seq: number }>(
    `WITH written AS (INSERT INTO events (type, subject, actor, data) VALUES ($1, $2, $3, $4) RETURNING seq),
       delivered AS (INSERT INTO event_deliveries (event_seq, consumer) SELECT seq, unnest($5::text[]) FROM written)
       ${webhookDeliveries(event.type, 6)}
     SELECT seq FROM written`,
    [
      event.type,
      event.subject,
      event.actor ?? null,
      JSON.stringify(event.data ?? {}),
      consumersOf(event.type),
      ...(hook ? [hook] : []),
    ],
  );
  return Number(seq);
}

/**
 * Writes many events of one type (a batch of orders placed together) in two statements, inside the
 * caller's transaction: the hot path pays for a batch what one event costs.
 */
export async function emitMany(tx: Queryable, type: EventType, events: Omit<NewEvent, 'type'>[]): Promise<void> {
  if (!events.length) return;
  const consumers = consumersOf(type);
  const hook = webhookTypeOf(type);
  await tx.query(
    `WITH written AS (
       INSERT INTO events (type, subject, actor, data)
       SELECT $1, subject, actor, data::jsonb FROM unnest($2::text[], $3::text[], $4::text[]) AS e(subject, actor, data)
       RETURNING seq),
       delivered AS (INSERT INTO event_deliveries (event_seq, consumer) SELECT written.seq, c FROM written, unnest($5::text[]) AS c)
       ${webhookDeliveries(type, 6)}
     SELECT count(*) FROM written`,
    [
      type,
      events.map((e) => e.subject),
      events.map((e) => e.actor ?? null),
      events.map((e) => JSON.stringify(e.data ?? {})),
      consumers,
      ...(hook ? [hook] : []),
    ],
  );
}

const EVENT_COLUMNS = `seq, type, subject, actor, data, at`;

/** Events as read: the sequence as a number, the time as ISO text. */
export function eventJson(row: {
  seq: number | string;
  type: string;
  subject: string;
  actor: string | null;
  data: unknown;
  at: string | Date;
}): StoredEvent {
  return {
    seq: Number(row.seq),
    type: row.type as EventType,
    subject: row.subject,
    actor: row.actor,
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
    at: new Date(row.at).toISOString(),
  };
}

/** Every event about one subject (an order's history), oldest first. */
export async function eventsAbout(db: Queryable, subject: string): Promise<StoredEvent[]> {
  const rows = await db.query<Parameters<typeof eventJson>[0]>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE subject = $1 ORDER BY seq`,
    [subject],
  );
  return rows.map(eventJson);
}

/** Events by their sequence numbers, in that order. */
export async function eventsBySeq(db: Queryable, seqs: number[]): Promise<StoredEvent[]> {
  if (!seqs.length) return [];
  const rows = await db.query<Parameters<typeof eventJson>[0]>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE seq = ANY($1) ORDER BY seq`,
    [seqs],
  );
  return rows.map(eventJson);
}
