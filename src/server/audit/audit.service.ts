// The audit log: the admins' actions, read from the domain events (events.service.ts) that each action
// writes in its own transaction. Read only: nothing here (or anywhere in the API) edits or deletes it.
import { AUDIT_ACTION_TYPES, type AuditAction } from '../../lib/audit.ts';
import type { AuditEntry, ListPage } from '../../lib/entities.ts';
import type { Db } from '../db/client.ts';
import type { EventType } from '../events/events.service.ts';
import { listPage, type PageAsk } from '../db/paging.ts';

// Every admin action is an event type the store writes (checked by the compiler).
const ACTIONS: readonly EventType[] = AUDIT_ACTION_TYPES;
// The same predicate as migration 18's partial index events_audit_idx, as literals so the planner
// matches it: pages and the count read that index. The types are our own constants, never input.
const IS_ADMIN_ACTION = `actor IS NOT NULL AND type IN (${ACTIONS.map((t) => `'${t}'`).join(', ')})`;

interface EventRow {
  seq: number;
  type: string;
  subject: string;
  actor: string;
  data: unknown;
  at: string | Date;
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** An event as an entry: its data's target, before and after when it has them. */
function auditJson(row: EventRow): AuditEntry {
  const data = asRecord(typeof row.data === 'string' ? JSON.parse(row.data) : row.data) ?? {};
  return {
    seq: Number(row.seq),
    at: new Date(row.at).toISOString(),
    type: row.type,
    actor: row.actor,
    subject: row.subject,
    target: typeof data.target === 'string' ? data.target : row.subject,
    before: asRecord(data.before),
    after: asRecord(data.after),
  };
}

export function auditService(db: Db) {
  return {
    /** A page of the log, newest first, after the event numbered `after`; only one kind with `type`. */
    async page({ limit, after }: PageAsk<number>, type?: AuditAction): Promise<ListPage<AuditEntry>> {
      const rows = await db.query<EventRow>(
        `SELECT seq, type, subject, actor, data, at FROM events
          WHERE ${IS_ADMIN_ACTION} AND ($2::bigint IS NULL OR seq < $2) AND ($3::text IS NULL OR type = $3)
          ORDER BY seq DESC LIMIT $1`,
        [limit + 1, after ?? null, type ?? null],
      );
      const [{ total }] = await db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM events WHERE ${IS_ADMIN_ACTION} AND ($1::text IS NULL OR type = $1)`,
        [type ?? null],
      );
      return listPage(rows, limit, total, (r) => Number(r.seq), auditJson);
    },
  };
}
export type AuditService = ReturnType<typeof auditService>;
