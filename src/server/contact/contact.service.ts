import type { ContactMessage, ContactPage } from '../../lib/entities.ts';
import type { ContactInput } from '../../lib/schemas.ts';
import type { Db } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import { newId } from '../db/ids.ts';
import { countMessages, insertMessage, selectPage, updateRead, type ContactRow } from './contact.sql.ts';

const contactJson = (r: ContactRow): ContactMessage => ({
  _id: r.id,
  name: r.name,
  email: r.email,
  message: r.message,
  receivedAt: new Date(r.created_at).toISOString(),
  read: r.is_read,
});

/**
 * 'Get In Touch': the spec shows no handling; we keep the message for the shop (the admins' Messages
 * screen) and, in the same transaction, write its 'contact.received' event, whose email consumer tells
 * the shop. A message is never without its event, or an event without its message.
 */
export function contactService(db: Db) {
  return {
    /** Keeps a message and its event; returns its id. */
    async add(input: ContactInput): Promise<string> {
      const id = newId();
      await db.transaction(async (tx) => {
        await insertMessage(tx, id, input);
        await emit(tx, {
          type: 'contact.received',
          subject: id,
          data: { name: input.name, email: input.email, message: input.message },
        });
      });
      return id;
    },

    /** A page of the messages, newest first (contact_messages_seq_idx), with the total and the unread count. */
    async page({ limit, after }: PageAsk<number>): Promise<ContactPage> {
      const rows = await selectPage(db, limit, after ?? null);
      const { total, unread } = await countMessages(db);
      return { ...listPage(rows, limit, total, (r) => Number(r.seq), contactJson), unread };
    },

    /** Marks a message read or unread; returns how many matched (0: no such message). */
    setRead(id: string, read: boolean): Promise<number> {
      return updateRead(db, id, read);
    },
  };
}
export type ContactService = ReturnType<typeof contactService>;
