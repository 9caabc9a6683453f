// Webhook endpoints and their delivery log (issue 29): what the Webhooks screen and /api/webhooks do.
// Adding, deleting, resuming and replaying are admin actions, each with its audit event in its
// transaction. The deliveries themselves are written with the events (events.service.ts) and sent by
// the worker (webhook-worker.ts).
import type { ListPage, WebhookDelivery, WebhookEndpoint } from '../../lib/entities.ts';
import { messages } from '../../lib/messages.ts';
import type { WebhookInput } from '../../lib/schemas.ts';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEvent } from '../../lib/webhooks.ts';
import type { Db } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import { conflict, notFound } from '../errors.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import { newId } from '../db/ids.ts';
import { checkEndpointUrl, type GuardOptions } from './address-guard.ts';
import { newSecret, type SecretBox } from './signing.ts';

type When = string | Date;
const iso = (v: When | null) => (v === null ? null : new Date(v).toISOString());

interface EndpointRow {
  id: string;
  url: string;
  events: WebhookEvent[];
  state: 'active' | 'paused';
  paused_reason: string | null;
  paused_at: When | null;
  last_success_at: When | null;
  created_by: string;
  created_at: When;
  pending: number;
  failed: number;
}

const endpointJson = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  events: r.events,
  state: r.state,
  pausedReason: r.paused_reason,
  pausedAt: iso(r.paused_at),
  createdAt: iso(r.created_at)!,
  createdBy: r.created_by,
  pending: Number(r.pending),
  failed: Number(r.failed),
  lastSuccessAt: iso(r.last_success_at),
});

interface DeliveryRow {
  id: string;
  seq: number;
  type: WebhookEvent;
  subject: string;
  state: WebhookDelivery['state'];
  attempts: number;
  last_status: number | null;
  last_ms: number | null;
  last_error: string | null;
  last_at: When | null;
  next_at: When;
  created_at: When;
}

const deliveryJson = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  eventType: r.type,
  subject: r.subject,
  state: r.state,
  attempts: r.attempts,
  responseStatus: r.last_status,
  durationMs: r.last_ms,
  error: r.last_error,
  lastAttemptAt: iso(r.last_at),
  nextAttemptAt: r.state === 'pending' ? iso(r.next_at) : null,
  createdAt: iso(r.created_at)!,
});

const ENDPOINT_SELECT = `SELECT e.id, e.url, e.events, e.state, e.paused_reason, e.paused_at, e.last_success_at, e.created_by, e.created_at,
    (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.state = 'pending') AS pending,
    (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.state = 'failed') AS failed
  FROM webhook_endpoints e`;

const DELIVERY_SELECT = `SELECT d.id, d.seq, d.type, v.subject, d.state, d.attempts, d.last_status, d.last_ms, d.last_error, d.last_at,
    d.next_at, d.created_at
  FROM webhook_deliveries d JOIN events v ON v.seq = d.event_seq`;

export interface WebhooksOptions {
  guard: GuardOptions;
  box: SecretBox;
  /** A delivery became due now (a replay, a resume): the worker looks at once. */
  due(): void;
}

export function webhooksService(db: Db, { guard, box, due }: WebhooksOptions) {
  /** An endpoint that exists (not deleted), or 404. */
  async function endpoint(id: string): Promise<WebhookEndpoint> {
    const [row] = await db.query<EndpointRow>(`${ENDPOINT_SELECT} WHERE e.id = $1 AND e.state <> 'deleted'`, [id]);
    if (!row) throw notFound('Webhook endpoint');
    return endpointJson(row);
  }

  return {
    endpoint,
    /** Every endpoint, oldest first (a store has at most MAX_WEBHOOK_ENDPOINTS). */
    async list(): Promise<WebhookEndpoint[]> {
      const rows = await db.query<EndpointRow>(`${ENDPOINT_SELECT} WHERE e.state <> 'deleted' ORDER BY e.seq`);
      return rows.map(endpointJson);
    },

    /** Adds an endpoint: its URL checked (https in production, no private address), its secret made. */
    async create(input: WebhookInput, actor: string): Promise<{ id: string; secret: string }> {
      await checkEndpointUrl(input.url, guard);
      const id = newId();
      const secret = newSecret();
      const added = await db.transaction(async (tx) => {
        // A cap against mistakes (every event goes to every endpoint), not a boundary: two admins adding
        // at the same moment may pass it by one.
        const [{ live }] = await tx.query<{ live: number }>(
          `SELECT count(*)::int AS live FROM webhook_endpoints WHERE state <> 'deleted'`,
        );
        if (live >= MAX_WEBHOOK_ENDPOINTS) return false;
        await tx.query(
          'INSERT INTO webhook_endpoints (id, url, events, secret, created_by) VALUES ($1, $2, $3, $4, $5)',
          [id, input.url, input.events, box.seal(secret), actor],
        );
        await emit(tx, {
          type: 'webhook.created',
          subject: id,
          actor,
          data: { target: input.url, before: null, after: { url: input.url, events: input.events.join(', ') } },
        });
        return true;
      });
      if (!added) throw conflict(messages.webhookTooMany(MAX_WEBHOOK_ENDPOINTS));
      return { id, secret };
    },

    /**
     * Deletes an endpoint: nothing more is sent to it, what waited is marked failed, and its secret is
     * wiped. The row stays (as 'deleted'), so an event committing at this moment still finds it.
     */
    async remove(id: string, actor: string): Promise<void> {
      const removed = await db.transaction(async (tx) => {
        const [row] = await tx.query<{ url: string; events: string[] }>(
          `UPDATE webhook_endpoints SET state = 'deleted', secret = '' WHERE id = $1 AND state <> 'deleted' RETURNING url, events`,
          [id],
        );
        if (!row) return false;
        await tx.query(
          `UPDATE webhook_deliveries SET state = 'failed', last_error = 'The endpoint was deleted' WHERE endpoint_id = $1 AND state = 'pending'`,
          [id],
        );
        await emit(tx, {
          type: 'webhook.deleted',
          subject: id,
          actor,
          data: { target: row.url, before: { url: row.url, events: row.events.join(', ') }, after: null },
        });
        return true;
      });
      if (!removed) throw notFound('Webhook endpoint');
    },

    /** Resumes a paused endpoint: what waited for it is due now. An active one is answered as it is. */
    async resume(id: string, actor: string): Promise<WebhookEndpoint> {
      const resumed = await db.transaction(async (tx) => {
        const [row] = await tx.query<{ url: string; paused_reason: string }>(
          `SELECT url, paused_reason FROM webhook_endpoints WHERE id = $1 AND state = 'paused' FOR UPDATE`,
          [id],
        );
        if (!row) return false;
        await tx.query(
          `UPDATE webhook_endpoints SET state = 'active', paused_reason = NULL, paused_at = NULL WHERE id = $1`,
          [id],
        );
        await tx.query(`UPDATE webhook_deliveries SET next_at = now() WHERE endpoint_id = $1 AND state = 'pending'`, [
          id,
        ]);
        await emit(tx, {
          type: 'webhook.resumed',
          subject: id,
          actor,
          data: { target: row.url, before: { state: 'paused', reason: row.paused_reason }, after: { state: 'active' } },
        });
        return true;
      });
      if (resumed) due();
      return endpoint(id);
    },

    /** One page of an endpoint's deliveries, newest first. */
    async deliveries(id: string, { limit, after }: PageAsk<number>): Promise<ListPage<WebhookDelivery>> {
      await endpoint(id);
      const rows = await db.query<DeliveryRow>(
        `${DELIVERY_SELECT} WHERE d.endpoint_id = $1 AND ($3::bigint IS NULL OR d.seq < $3) ORDER BY d.seq DESC LIMIT $2`,
        [id, limit + 1, after ?? null],
      );
      const [{ total }] = await db.query<{ total: number }>(
        'SELECT count(*)::int AS total FROM webhook_deliveries WHERE endpoint_id = $1',
        [id],
      );
      return listPage(rows, limit, total, (r) => Number(r.seq), deliveryJson);
    },

    /**
     * Sends a delivery again, now, with the same webhook-id (a receiver that kept it can tell), and a
     * fresh set of attempts. One under way is answered as it is. A paused endpoint must be resumed first.
     */
    async replay(endpointId: string, deliveryId: string, actor: string): Promise<WebhookDelivery> {
      const target = await endpoint(endpointId);
      if (target.state === 'paused') throw conflict(messages.webhookPausedReplay);
      const row = await db.transaction(async (tx) => {
        const [replayed] = await tx.query<{ id: string; type: string }>(
          `UPDATE webhook_deliveries SET state = 'pending', next_at = now(), attempts = 0, first_at = NULL, lease_until = NULL
            WHERE id = $1 AND endpoint_id = $2 AND NOT (state = 'pending' AND lease_until > now()) RETURNING id, type`,
          [deliveryId, endpointId],
        );
        if (replayed)
          await emit(tx, {
            type: 'webhook.replayed',
            subject: endpointId,
            actor,
            data: { target: target.url, before: null, after: { delivery: deliveryId, event: replayed.type } },
          });
        const [current] = await tx.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1 AND d.endpoint_id = $2`, [
          deliveryId,
          endpointId,
        ]);
        return current;
      });
      if (!row) throw notFound('Delivery');
      due();
      return deliveryJson(row);
    },
  };
}
export type WebhooksService = ReturnType<typeof webhooksService>;
