// Domain events: what happened to an order, a tool, a user, a review, written in the same transaction as
// the change it describes (so there is never a change without its event, or an event without its
// change). Each event also gets a delivery row per consumer that acts on its type (emails now, webhooks
// next), which the outbox worker (outbox.ts) works through. The table is append-only: the order history
// and the admins' audit log are read from it, and no API call edits or deletes it.
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
  | 'stock.low';

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

/**
 * Writes the event (and its deliveries) inside the caller's transaction: call it with the `tx` that
 * makes the change. Returns the event's sequence number.
 */
export async function emit(tx: Queryable, event: NewEvent): Promise<number> {
  // One statement: the event and a delivery per consumer that acts on it (none: no row).
  const [{ seq }] = await tx.query<{ seq: number }>(
    `WITH written AS (INSERT INTO events (type, subject, actor, data) VALUES ($1, $2, $3, $4) RETURNING seq),
       delivered AS (INSERT INTO event_deliveries (event_seq, consumer) SELECT seq, unnest($5::text[]) FROM written)
     SELECT seq FROM written`,
    [event.type, event.subject, event.actor ?? null, JSON.stringify(event.data ?? {}), consumersOf(event.type)],
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
  await tx.query(
    `WITH written AS (
       INSERT INTO events (type, subject, actor, data)
       SELECT $1, subject, actor, data::jsonb FROM unnest($2::text[], $3::text[], $4::text[]) AS e(subject, actor, data)
       RETURNING seq)
     INSERT INTO event_deliveries (event_seq, consumer) SELECT written.seq, c FROM written, unnest($5::text[]) AS c`,
    [
      type,
      events.map((e) => e.subject),
      events.map((e) => e.actor ?? null),
      events.map((e) => JSON.stringify(e.data ?? {})),
      consumers,
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
