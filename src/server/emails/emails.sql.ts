// The emails table's statements. emails.service.ts owns the rules around them: one row per event, kind
// and recipient, when a row is sent, kept or failed, and how a row reads as the API's StoreEmail.
import type { EmailAttachmentRef, StoreEmail as EmailRow } from '../../lib/entities.ts';
import type { Queryable } from '../db/client.ts';

const COLUMNS = `id, kind, recipient, subject, text_body AS text, html_body AS html, attachments, state, attempts,
  last_error AS "lastError", created_at AS "createdAt", sent_at AS "sentAt"`;

/** A new email's row, for the event numbered `eventSeq`. */
export interface NewEmail {
  id: string;
  eventSeq: number;
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  attachments: EmailAttachmentRef[];
}

/**
 * Writes the rows in one statement; a row already there for its event, kind and recipient is kept as it is.
 * `kept` (no SMTP): the rows are written kept, as if sent, and a row of theirs not gone yet (written while SMTP
 * was set, or failed) is marked kept too, so nothing is left to deliver.
 */
export function insertEmails(db: Queryable, emails: readonly NewEmail[], { kept = false } = {}) {
  const params: unknown[] = [];
  const rows = emails.map((e) => {
    const at = params.length;
    params.push(e.id, e.eventSeq, e.kind, e.recipient, e.subject, e.text, e.html, JSON.stringify(e.attachments));
    return `(${Array.from({ length: 8 }, (_, i) => `$${at + i + 1}`).join(', ')}${kept ? `, 'kept', 1` : ''})`;
  });
  return db.query(
    `INSERT INTO emails (id, event_seq, kind, recipient, subject, text_body, html_body, attachments${kept ? ', state, attempts' : ''})
     VALUES ${rows.join(', ')} ON CONFLICT (event_seq, kind, recipient) ${
       kept
         ? `DO UPDATE SET state = 'kept', attempts = emails.attempts + 1, last_error = NULL
             WHERE emails.state IN ('pending', 'failed')`
         : 'DO NOTHING'
     }`,
    params,
  );
}

/** The emails of these events that have not gone yet, in the order they were written. */
export const selectUnsent = (db: Queryable, eventSeqs: readonly number[]) =>
  db.query<EmailRow & { event_seq: number }>(
    `SELECT event_seq, ${COLUMNS} FROM emails WHERE event_seq = ANY($1) AND state IN ('pending', 'failed') ORDER BY seq`,
    [eventSeqs],
  );

export const selectEmail = async (db: Queryable, id: string) =>
  (await db.query<EmailRow>(`SELECT ${COLUMNS} FROM emails WHERE id = $1`, [id]))[0] as EmailRow | undefined;

/** A page of emails, newest first, after the one numbered `after` (one row more than `limit`: a next page?). */
export const selectPage = (db: Queryable, limit: number, after: number | undefined) =>
  db.query<EmailRow & { seq: number }>(
    `SELECT seq, ${COLUMNS} FROM emails ${after === undefined ? '' : 'WHERE seq < $2'} ORDER BY seq DESC LIMIT $1`,
    after === undefined ? [limit + 1] : [limit + 1, after],
  );

export const countEmails = async (db: Queryable) =>
  (await db.query<{ total: number }>('SELECT count(*)::int AS total FROM emails'))[0].total;

/** With no SMTP: kept for the admin's Emails screen. */
export const markKept = (db: Queryable, id: string) =>
  db.query(`UPDATE emails SET state = 'kept', attempts = attempts + 1, last_error = NULL WHERE id = $1`, [id]);

export const markFailed = (db: Queryable, id: string, error: string) =>
  db.query(`UPDATE emails SET state = 'failed', attempts = attempts + 1, last_error = $2 WHERE id = $1`, [id, error]);

export const markSent = (db: Queryable, id: string) =>
  db.query(
    `UPDATE emails SET state = 'sent', attempts = attempts + 1, last_error = NULL, sent_at = now() WHERE id = $1`,
    [id],
  );
