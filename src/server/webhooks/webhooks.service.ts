// Webhook endpoints and their delivery log (issue 29): what the Webhooks screen and /api/webhooks do.
// Adding, deleting, resuming and replaying are admin actions, each with its audit event in its
// transaction. The deliveries themselves are written with the events (events.service.ts) and sent by
// the worker (webhook-worker.ts).
import type { ListPage, WebhookDelivery, WebhookEndpoint } from '../../lib/entities.ts';
import { messages } from '../../lib/messages.ts';
import type { WebhookInput } from '../../lib/schemas.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../../lib/webhooks.ts';
import type { Db } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import { conflict, notFound } from '../errors.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import { newId } from '../db/ids.ts';
import { checkEndpointUrl, type GuardOptions } from './address-guard.ts';
import { newSecret, type SecretBox } from './signing.ts';
import {
  countDeliveries,
  countLiveEndpoints,
  type DeliveryRow,
  type EndpointRow,
  failPendingDeliveries,
  insertEndpoint,
  lockPausedEndpoint,
  makePendingDue,
  markEndpointActive,
  markEndpointDeleted,
  markForReplay,
  selectDeliveries,
  selectDelivery,
  selectEndpoint,
  selectEndpoints,
} from './webhooks.sql.ts';

type When = string | Date;
const iso = (v: When | null) => (v === null ? null : new Date(v).toISOString());

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

export interface WebhooksOptions {
  guard: GuardOptions;
  box: SecretBox;
  /** A delivery became due now (a replay, a resume): the worker looks at once. */
  due(): void;
}

export function webhooksService(db: Db, { guard, box, due }: WebhooksOptions) {
  /** An endpoint that exists (not deleted), or 404. */
  async function endpoint(id: string): Promise<WebhookEndpoint> {
    const row = await selectEndpoint(db, id);
    if (!row) throw notFound('Webhook endpoint');
    return endpointJson(row);
  }

  return {
    endpoint,
    /** Every endpoint, oldest first (a store has at most MAX_WEBHOOK_ENDPOINTS). */
    async list(): Promise<WebhookEndpoint[]> {
      return (await selectEndpoints(db)).map(endpointJson);
    },

    /** Adds an endpoint: its URL checked (https in production, no private address), its secret made. */
    async create(input: WebhookInput, actor: string): Promise<{ id: string; secret: string }> {
      await checkEndpointUrl(input.url, guard);
      const id = newId();
      const secret = newSecret();
      const added = await db.transaction(async (tx) => {
        // A cap against mistakes (every event goes to every endpoint), not a boundary: two admins adding
        // at the same moment may pass it by one.
        if ((await countLiveEndpoints(tx)) >= MAX_WEBHOOK_ENDPOINTS) return false;
        await insertEndpoint(tx, {
          id,
          url: input.url,
          events: input.events,
          sealedSecret: box.seal(secret),
          createdBy: actor,
        });
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
        const row = await markEndpointDeleted(tx, id);
        if (!row) return false;
        await failPendingDeliveries(tx, id);
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
        const row = await lockPausedEndpoint(tx, id);
        if (!row) return false;
        await markEndpointActive(tx, id);
        await makePendingDue(tx, id);
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
      const rows = await selectDeliveries(db, id, limit, after ?? null);
      const total = await countDeliveries(db, id);
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
        const replayed = await markForReplay(tx, deliveryId, endpointId);
        if (replayed)
          await emit(tx, {
            type: 'webhook.replayed',
            subject: endpointId,
            actor,
            data: { target: target.url, before: null, after: { delivery: deliveryId, event: replayed.type } },
          });
        return selectDelivery(tx, deliveryId, endpointId);
      });
      if (!row) throw notFound('Delivery');
      due();
      return deliveryJson(row);
    },
  };
}
export type WebhooksService = ReturnType<typeof webhooksService>;
