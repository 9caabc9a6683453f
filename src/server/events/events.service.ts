// Domain events: what happened to an order, a tool, a user, a review, written in the same transaction as
// the change it describes (so there is never a change without its event, or an event without its
// change). Each event also gets a delivery row per consumer that acts on its type (emails), which the
// outbox worker (outbox.ts) works through, and one per webhook endpoint subscribed to it (webhooks/),
// which the webhook worker sends. The table is append-only: the order history and the admins' audit log
// are read from it, and no API call edits or deletes it.
import type { WebhookEvent } from '../../lib/webhooks.ts';
import type { Queryable } from '../db/client.ts';
import { insertEvent, insertEvents, selectEventsAbout, selectEventsBySeq, type EventRow } from './events.sql.ts';

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
 * Writes the event (and its deliveries) inside the caller's transaction: call it with the `tx` that
 * makes the change. Returns the event's sequence number.
 */
export async function emit(tx: Queryable, event: NewEvent): Promise<number> {
  const written = { type: event.type, subject: event.subject, actor: event.actor ?? null, data: event.data ?? {} };
  const seq = await insertEvent(tx, written, consumersOf(event.type), webhookTypeOf(event.type));
  return Number(seq);
}

/**
 * Writes many events of one type (a batch of orders placed together) in two statements, inside the
 * caller's transaction: the hot path pays for a batch what one event costs.
 */
export async function emitMany(tx: Queryable, type: EventType, events: Omit<NewEvent, 'type'>[]): Promise<void> {
  if (!events.length) return;
  const written = events.map((e) => ({ subject: e.subject, actor: e.actor ?? null, data: e.data ?? {} }));
  await insertEvents(tx, type, written, consumersOf(type), webhookTypeOf(type));
}

/** Events as read: the sequence as a number, the time as ISO text. */
export function eventJson(row: EventRow): StoredEvent {
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
  return (await selectEventsAbout(db, subject)).map(eventJson);
}

/** Events by their sequence numbers, in that order. */
export async function eventsBySeq(db: Queryable, seqs: number[]): Promise<StoredEvent[]> {
  if (!seqs.length) return [];
  return (await selectEventsBySeq(db, seqs)).map(eventJson);
}
