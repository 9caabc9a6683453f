// The statements over contact_messages. contact.service.ts owns the rules: a message is kept with its
// event in one transaction.
import type { ContactInput } from '../../lib/schemas.ts';
import type { Queryable } from '../db/client.ts';

export interface ContactRow {
  id: string;
  seq: number;
  name: string;
  email: string;
  message: string;
  created_at: string | Date;
  is_read: boolean;
}

export const insertMessage = (db: Queryable, id: string, input: ContactInput) =>
  db.query('INSERT INTO contact_messages (id, name, email, message) VALUES ($1, $2, $3, $4)', [
    id,
    input.name,
    input.email,
    input.message,
  ]);

/**
 * A page of the messages, newest first (contact_messages_seq_idx), after the one numbered `after`: one
 * more row than `limit`, which tells whether a next page follows.
 */
export const selectPage = (db: Queryable, limit: number, after: number | null) =>
  db.query<ContactRow>(
    `SELECT id, seq, name, email, message, created_at, is_read FROM contact_messages
      WHERE $2::bigint IS NULL OR seq < $2 ORDER BY seq DESC LIMIT $1`,
    [limit + 1, after],
  );

/** How many messages there are, and how many of them are unread. */
export const countMessages = async (db: Queryable) =>
  (
    await db.query<{ total: number; unread: number }>(
      `SELECT (SELECT count(*)::int FROM contact_messages) AS total,
              (SELECT count(*)::int FROM contact_messages WHERE NOT is_read) AS unread`,
    )
  )[0];

/** Returns how many rows matched (0: no such message). */
export const updateRead = async (db: Queryable, id: string, read: boolean) =>
  (await db.query('UPDATE contact_messages SET is_read = $2 WHERE id = $1 RETURNING id', [id, read])).length;
