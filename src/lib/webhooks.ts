// Outgoing webhooks (issue 29): the events an endpoint may subscribe to, each with the words the Webhooks
// screen shows, and the retry schedule every delivery follows. Shared by the API's schema, the worker
// and the screen, so a name or a wait is written once.

/** The names, apart from their words: the API's schema (in every form's bundle) needs only these. */
export const WEBHOOK_EVENT_TYPES = [
  'order.placed',
  'order.paid',
  'order.shipped',
  'order.delivered',
  'order.refunded',
  'order.cancelled',
  'tool.created',
  'tool.updated',
  'tool.deleted',
  'stock.low',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENT_TYPES)[number];

/** When each is sent, in the Webhooks screen's words. */
export const WEBHOOK_EVENTS: Record<WebhookEvent, string> = {
  'order.placed': 'An order is placed',
  'order.paid': 'An order is paid',
  'order.shipped': 'An order is shipped',
  'order.delivered': 'An order is delivered',
  'order.refunded': 'An order is refunded, whole or in part',
  'order.cancelled': 'An unpaid order is cancelled or deleted',
  'tool.created': 'A tool is added (also by an import)',
  'tool.updated': 'A tool is edited or restocked (also by an import)',
  'tool.deleted': 'A tool is deleted',
  'stock.low': 'A sale takes a tool below its low-stock level',
};

/**
 * The waits before each retry of a failed delivery: the first within seconds, then longer, together
 * more than a day (about 25.7 hours, before jitter), so a receiver that is down overnight still gets
 * everything. Each wait is stretched by a random 0–20 % (jitter), so the retries of many deliveries that
 * failed together do not all arrive at once when the receiver comes back; the total never shrinks.
 */
export const WEBHOOK_RETRY_WAITS_MS = [
  5_000,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 3600_000,
  4 * 3600_000,
  8 * 3600_000,
  10 * 3600_000,
] as const;

/** Attempts a delivery gets: the first, then one per wait. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_WAITS_MS.length + 1;

/** Endpoints a store may have (each event is sent to every subscribed one). */
export const MAX_WEBHOOK_ENDPOINTS = 20;
