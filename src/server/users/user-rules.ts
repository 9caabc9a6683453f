// Who a user is allowed to be: the rules the guards and the services share (no HTTP here).
import { batched, type Gather } from '../db/batched.ts';
import type { Queryable } from '../db/client.ts';
import { ttlCache } from '../caching/cache.ts';
import type { ChangeBus } from '../caching/changes.ts';
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
 * How long a signed-in user's row is used again without reading it: the bound on a role change another
 * server made while this one's change listener was cut off without noticing. A user change announced on
 * the bus (users.service.ts) drops the kept rows of the emails it names, or every kept row if it names none.
 */
const USER_ROW_TTL_MS = 5_000;
/** Rows kept at most: past it, all are forgotten (one buyer's row is ~200 bytes). */
const MAX_USER_ROWS = 10_000;

/**
 * The signed-in check's lookup (Deps.signedInUser). Each signed-in request needs the user's row (the role
 * always comes from the database), so it is kept in memory while the change bus hears every change: a
 * statement and a round trip less per request (issue 30). Lookups that miss and arrive together are
 * answered by one query (db/batched.ts), so a rush of buyers costs a few queries, not one each, which
 * matters on PGlite's single connection. One per app, so it goes with its runtime.
 */
export function signedInUsers(
  db: Queryable,
  changes: Pick<ChangeBus, 'subscribe' | 'listening'>,
  gather?: Gather,
): (email: string) => Promise<CurrentUser | undefined> {
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
  const kept = ttlCache<SignedInUserRow | undefined>({ ttlMs: USER_ROW_TTL_MS, maxEntries: MAX_USER_ROWS });
  changes.subscribe((change, emails) => {
    if (change !== 'users') return;
    if (emails?.length) kept.forget(emails);
    else kept.drop();
  });
  return async (email) => {
    // While the listener is away another server's change could be missed: read every time then.
    const row = changes.listening() ? await kept.get(email, () => rows(email)) : await rows(email);
    return row && { email: row.email, name: row.name, role: usableRole(row), uid: row.firebase_uid };
  };
}
