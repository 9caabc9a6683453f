// The statements of the Webhooks screen over webhook_endpoints and webhook_deliveries. webhooks.service.ts
// owns the rules around them (the cap, audit events); webhook-worker.ts sends and has its own.
import type { WebhookDelivery } from '../../lib/entities.ts';
import type { WebhookEvent } from '../../lib/webhooks.ts';
import type { Queryable } from '../db/client.ts';

type When = string | Date;

export interface EndpointRow {
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

export interface DeliveryRow {
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

const ENDPOINT_SELECT = `SELECT e.id, e.url, e.events, e.state, e.paused_reason, e.paused_at, e.last_success_at, e.created_by, e.created_at,
    (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.state = 'pending') AS pending,
    (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.state = 'failed') AS failed
  FROM webhook_endpoints e`;

const DELIVERY_SELECT = `SELECT d.id, d.seq, d.type, v.subject, d.state, d.attempts, d.last_status, d.last_ms, d.last_error, d.last_at,
    d.next_at, d.created_at
  FROM webhook_deliveries d JOIN events v ON v.seq = d.event_seq`;

/** An endpoint that was not deleted, with how many of its deliveries wait and failed. */
export const selectEndpoint = async (db: Queryable, id: string) =>
  (await db.query<EndpointRow>(`${ENDPOINT_SELECT} WHERE e.id = $1 AND e.state <> 'deleted'`, [id]))[0] as
    EndpointRow | undefined;

/** Every endpoint that was not deleted, oldest first. */
export const selectEndpoints = (db: Queryable) =>
  db.query<EndpointRow>(`${ENDPOINT_SELECT} WHERE e.state <> 'deleted' ORDER BY e.seq`);

export const countLiveEndpoints = async (db: Queryable) =>
  (await db.query<{ live: number }>(`SELECT count(*)::int AS live FROM webhook_endpoints WHERE state <> 'deleted'`))[0]
    .live;

export const insertEndpoint = (
  db: Queryable,
  endpoint: { id: string; url: string; events: readonly WebhookEvent[]; sealedSecret: string; createdBy: string },
) =>
  db.query('INSERT INTO webhook_endpoints (id, url, events, secret, created_by) VALUES ($1, $2, $3, $4, $5)', [
    endpoint.id,
    endpoint.url,
    endpoint.events,
    endpoint.sealedSecret,
    endpoint.createdBy,
  ]);

/** Not a DELETE: the row stays (webhooksService.remove says why). No row when there is none left to delete. */
export const markEndpointDeleted = async (db: Queryable, id: string) =>
  (
    await db.query<{ url: string; events: string[] }>(
      `UPDATE webhook_endpoints SET state = 'deleted', secret = '' WHERE id = $1 AND state <> 'deleted' RETURNING url, events`,
      [id],
    )
  )[0] as { url: string; events: string[] } | undefined;

/** What waited for a deleted endpoint is failed, never sent. */
export const failPendingDeliveries = (db: Queryable, endpointId: string) =>
  db.query(
    `UPDATE webhook_deliveries SET state = 'failed', last_error = 'The endpoint was deleted' WHERE endpoint_id = $1 AND state = 'pending'`,
    [endpointId],
  );

/** A paused endpoint, its row locked until the transaction ends. */
export const lockPausedEndpoint = async (db: Queryable, id: string) =>
  (
    await db.query<{ url: string; paused_reason: string }>(
      `SELECT url, paused_reason FROM webhook_endpoints WHERE id = $1 AND state = 'paused' FOR UPDATE`,
      [id],
    )
  )[0] as { url: string; paused_reason: string } | undefined;

export const markEndpointActive = (db: Queryable, id: string) =>
  db.query(`UPDATE webhook_endpoints SET state = 'active', paused_reason = NULL, paused_at = NULL WHERE id = $1`, [id]);

/** What waits for an endpoint is due now. */
export const makePendingDue = (db: Queryable, endpointId: string) =>
  db.query(`UPDATE webhook_deliveries SET next_at = now() WHERE endpoint_id = $1 AND state = 'pending'`, [endpointId]);

/** A page of an endpoint's deliveries, newest first, after the one numbered `after` (one row more than `limit`). */
export const selectDeliveries = (db: Queryable, endpointId: string, limit: number, after: number | null) =>
  db.query<DeliveryRow>(
    `${DELIVERY_SELECT} WHERE d.endpoint_id = $1 AND ($3::bigint IS NULL OR d.seq < $3) ORDER BY d.seq DESC LIMIT $2`,
    [endpointId, limit + 1, after],
  );

export const countDeliveries = async (db: Queryable, endpointId: string) =>
  (
    await db.query<{ total: number }>('SELECT count(*)::int AS total FROM webhook_deliveries WHERE endpoint_id = $1', [
      endpointId,
    ])
  )[0].total;

export const selectDelivery = async (db: Queryable, id: string, endpointId: string) =>
  (await db.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1 AND d.endpoint_id = $2`, [id, endpointId]))[0] as
    DeliveryRow | undefined;

/**
 * Makes a delivery due now with a fresh set of attempts, unless one is under way (pending under a lease).
 * No row when it was under way or there is no such delivery of this endpoint.
 */
export const markForReplay = async (db: Queryable, id: string, endpointId: string) =>
  (
    await db.query<{ id: string; type: string }>(
      `UPDATE webhook_deliveries SET state = 'pending', next_at = now(), attempts = 0, first_at = NULL, lease_until = NULL
        WHERE id = $1 AND endpoint_id = $2 AND NOT (state = 'pending' AND lease_until > now()) RETURNING id, type`,
      [id, endpointId],
    )
  )[0] as { id: string; type: string } | undefined;
