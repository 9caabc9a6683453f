// What a webhook says: `{type, timestamp, data}` as Standard Webhooks shapes it, made from the stored
// event alone (the facts as they were when it happened), so every retry and replay sends the same bytes.
import type { WebhookEvent } from '../../lib/webhooks.ts';
import type { StoredEvent } from '../events/events.service.ts';

export interface WebhookPayload {
  type: WebhookEvent;
  /** When the event happened (ISO 8601), not when this attempt was made. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** What the audit log keeps beside the facts (Activity's words), not part of what is sent. */
const AUDIT_KEYS = new Set(['target', 'before', 'after']);

/**
 * The facts an event sends: an order's (id, buyer, lines, totals, and what the step adds: transaction,
 * invoice, carrier, refund), a tool as the API shows it, a low-stock warning. No secrets live in events.
 */
export function webhookData(event: StoredEvent): Record<string, unknown> {
  const data = event.data;
  if (event.type.startsWith('tool.')) {
    const tool = data.tool as Record<string, unknown> | undefined;
    return tool ?? { _id: event.subject, ...(data.after ?? data.before ?? {}) };
  }
  const facts = Object.fromEntries(Object.entries(data).filter(([key]) => !AUDIT_KEYS.has(key)));
  return { _id: event.subject, ...facts };
}

/** The body of every attempt of one delivery. */
export const webhookBody = (event: StoredEvent, type: WebhookEvent): string =>
  JSON.stringify({ type, timestamp: event.at, data: webhookData(event) } satisfies WebhookPayload);
