// Who a user is allowed to be: the rules the guards and the services share (no HTTP here).
import { batched, type Gather } from '../db/batched.ts';
import type { Queryable } from '../db/client.ts';
import type { CurrentUser } from '../types.ts';

/** A stored role is usable only with a verified email: anyone can make an unverified password account for any address. */
export const usableRole = (row: { role: 'user' | 'admin'; email_verified: boolean }): CurrentUser['role'] =>
  row.role === 'admin' && row.email_verified ? 'admin' : 'user';

/** Whether the user placed this order (or asked this quote): same email and the same Firebase account (legacy rows: both unbound). */
export const isBuyer = (user: CurrentUser, order: { email: string; buyer_uid?: string | null }): boolean =>
  order.email === user.email && (order.buyer_uid ?? null) === user.uid;

interface SignedInUserRow {
  email: string;
  name: string;
  role: 'user' | 'admin';
  email_verified: boolean;
  firebase_uid: string | null;
}

/**
 * The signed-in check's lookup (Deps.signedInUser): lookups that arrive together are answered by one
 * query (db/batched.ts), so a rush of buyers costs a few queries, not one each, which matters on
 * PGlite's single connection. One per app, so it goes with its runtime.
 */
export function signedInUsers(db: Queryable, gather?: Gather): (email: string) => Promise<CurrentUser | undefined> {
  const rows = batched(
    async (emails: string[]) => {
      const byEmail = new Map(
        (
          await db.query<SignedInUserRow>(
            'SELECT email, name, role, email_verified, firebase_uid FROM users WHERE email = ANY($1)',
            [[...new Set(emails)]],
          )
        ).map((r) => [r.email, r]),
      );
      return emails.map((e) => byEmail.get(e));
    },
    { gather },
  );
  return async (email) => {
    const row = await rows(email);
    return row && { email: row.email, name: row.name, role: usableRole(row), uid: row.firebase_uid };
  };
}
