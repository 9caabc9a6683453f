// Who a user is allowed to be: the rules the guards and the services share (no HTTP here).
import type { Db } from '../db/client.ts';
import type { CurrentUser } from '../types.ts';

/** A stored role is usable only with a verified email: anyone can make an unverified password account for any address. */
export const usableRole = (row: { role: 'user' | 'admin'; email_verified: boolean }): CurrentUser['role'] =>
  row.role === 'admin' && row.email_verified ? 'admin' : 'user';

/** Whether the user placed this order (or asked this quote): same email and the same Firebase account (legacy rows: both unbound). */
export const isBuyer = (user: CurrentUser, order: { email: string; buyer_uid?: string | null }): boolean =>
  order.email === user.email && (order.buyer_uid ?? null) === user.uid;

export interface SignedInUserRow {
  email: string;
  name: string;
  role: 'user' | 'admin';
  email_verified: boolean;
  firebase_uid: string | null;
}

/** The rows a sign-in check needs, for several emails in one query (the guards batch their lookups). */
export const signedInUserRows = (db: Db, emails: string[]) =>
  db.query<SignedInUserRow>('SELECT email, name, role, email_verified, firebase_uid FROM users WHERE email = ANY($1)', [
    [...new Set(emails)],
  ]);
