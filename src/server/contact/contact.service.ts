import type { ContactInput } from '../../lib/schemas.ts';
import type { Db } from '../db/client.ts';
import { newId } from '../ids.ts';

/** 'Get In Touch': the spec shows no handling; we keep the message for the shop instead of dropping it. */
export function contactService(db: Db) {
  return {
    /** Keeps a message; returns its id. */
    async add(input: ContactInput): Promise<string> {
      const id = newId();
      await db.query('INSERT INTO contact_messages (id, name, email, message) VALUES ($1, $2, $3, $4)', [
        id,
        input.name,
        input.email,
        input.message,
      ]);
      return id;
    },
  };
}
export type ContactService = ReturnType<typeof contactService>;
