import type { ProfileUpdate } from '../../lib/schemas.ts';
import type { ListPage, UserProfile } from '../../lib/entities.ts';
import { usableRole } from './user-rules.ts';
import type { Db, Queryable } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import type { CurrentUser } from '../types.ts';
import { listPage, type PageAsk } from '../db/paging.ts';

const SELECT = `SELECT email, name, education, social, phone_number AS "phoneNumber", address,
  sign_up_date AS "signUpDate", role FROM users`;

const normalise = (u: UserProfile): UserProfile => ({ ...u, signUpDate: new Date(u.signUpDate).toISOString() });

/** A user's place in the list (newest first, then by email): sign-up time in whole microseconds, email. */
export type UserKey = [signUpMicros: string, email: string];
// Microseconds as text, exact both ways: a JavaScript Date keeps only milliseconds, and two sign-ups
// within one millisecond would otherwise straddle a page boundary.
const KEYED_SELECT = SELECT.replace(
  ' FROM users',
  `, (extract(epoch FROM sign_up_date) * 1000000)::bigint::text AS "keyMicros" FROM users`,
);
const at = (param: number) => `('epoch'::timestamptz + $${param}::bigint * interval '1 microsecond')`;

/** What a delete did: the row is gone, or why it stays. */
export type RemoveOutcome = 'deleted' | 'missing' | 'owner' | 'not owner' | 'last admin';

/**
 * The first step of every user deletion: the admins locked first, in one order, then the target. Two
 * deletes at once then queue up instead of deadlocking, and the count they read is the count after
 * the other's commit. Only admins who can act (verified) count: an unverified admin row cannot run the store.
 */
async function lockForRemoval(tx: Queryable, email: string) {
  const admins = await tx.query(
    `SELECT email FROM users WHERE role = 'admin' AND email_verified ORDER BY email FOR UPDATE`,
  );
  const [target] = await tx.query<{ role: 'user' | 'admin'; email_verified: boolean; firebase_uid: string | null }>(
    'SELECT role, email_verified, firebase_uid FROM users WHERE email = $1 FOR UPDATE',
    [email],
  );
  return { admins: admins.length, target };
}

export function usersService(db: Db, adminEmails: string[]) {
  /** The shop's owners: the ADMIN_EMAILS addresses. Only they make or remove admins, and nobody removes them. */
  const isOwner = (user: CurrentUser) => user.role === 'admin' && adminEmails.includes(user.email);
  return {
    /**
     * Creates or refreshes the user at each token exchange. Never takes a role from a client.
     * - The row belongs to one Firebase account (firebase_uid). An unbound row (seeded) is bound by
     *   the first verified token. Any other account for the email (the first deleted and the address
     *   signed up again, or an unverified claim on a seeded row) starts afresh: role user, empty profile.
     * - email_verified follows the token; roles above user are used only with it (auth/guards.ts).
     * - ADMIN_EMAILS promotes only a verified token: anyone can make a password account for any address.
     */
    async upsertOnSignIn(identity: {
      email: string;
      uid: string;
      name?: string;
      emailVerified: boolean;
    }): Promise<void> {
      const role = identity.emailVerified && adminEmails.includes(identity.email) ? 'admin' : 'user';
      const same =
        '(users.firebase_uid = EXCLUDED.firebase_uid OR (users.firebase_uid IS NULL AND EXCLUDED.email_verified))';
      await db.query(
        `INSERT INTO users (email, firebase_uid, name, role, email_verified) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (email) DO UPDATE SET
           firebase_uid = EXCLUDED.firebase_uid,
           email_verified = EXCLUDED.email_verified,
           name = CASE WHEN ${same} AND users.name <> '' THEN users.name ELSE EXCLUDED.name END,
           education = CASE WHEN ${same} THEN users.education ELSE '' END,
           social = CASE WHEN ${same} THEN users.social ELSE '' END,
           phone_number = CASE WHEN ${same} THEN users.phone_number ELSE '' END,
           address = CASE WHEN ${same} THEN users.address ELSE '' END,
           sign_up_date = CASE WHEN ${same} THEN users.sign_up_date ELSE now() END,
           role = CASE WHEN EXCLUDED.role = 'admin' THEN 'admin' WHEN ${same} THEN users.role ELSE 'user' END`,
        [identity.email, identity.uid, identity.name ?? '', role, identity.emailVerified],
      );
    },
    /** Whether the user can act as an admin now: the admin role and a verified email. */
    async isAdmin(email: string): Promise<boolean> {
      const [row] = await db.query<{ role: 'user' | 'admin'; email_verified: boolean }>(
        'SELECT role, email_verified FROM users WHERE email = $1',
        [email],
      );
      return row ? usableRole(row) === 'admin' : false;
    },
    async get(email: string): Promise<UserProfile | undefined> {
      const [user] = await db.query<UserProfile>(`${SELECT} WHERE email = $1`, [email]);
      return user && normalise(user);
    },
    async list(): Promise<UserProfile[]> {
      return (await db.query<UserProfile>(`${SELECT} ORDER BY sign_up_date DESC, email`)).map(normalise);
    },
    /** One page of list()'s order, after `after` (users_sign_up_idx makes it an index range). */
    async page({ limit, after }: PageAsk<UserKey>, search?: string): Promise<ListPage<UserProfile>> {
      const params: unknown[] = [limit + 1];
      const filters: string[] = [];
      // Emails are kept in lower case; the search's %, _ and \ are matched as themselves.
      if (search)
        filters.push(`email LIKE $${params.push(`%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)}`);
      const pattern = params[1];
      if (after)
        filters.push(
          `(sign_up_date < ${at(params.push(after[0]))} OR (sign_up_date = ${at(params.length)} AND email > $${params.push(after[1])}))`,
        );
      const rows = await db.query<UserProfile & { keyMicros: string }>(
        `${KEYED_SELECT} ${filters.length ? `WHERE ${filters.join(' AND ')}` : ''} ORDER BY sign_up_date DESC, email LIMIT $1`,
        params,
      );
      const [{ total }] = search
        ? await db.query<{ total: number }>('SELECT count(*)::int AS total FROM users WHERE email LIKE $1', [pattern])
        : await db.query<{ total: number }>('SELECT count(*)::int AS total FROM users');
      return listPage(
        rows,
        limit,
        total,
        (u): UserKey => [u.keyMicros, u.email],
        ({ keyMicros: _key, ...u }) => normalise(u),
      );
    },
    async update(email: string, p: ProfileUpdate): Promise<number> {
      const rows = await db.query(
        `UPDATE users SET name = $2, education = $3, social = $4, phone_number = $5, address = $6
         WHERE email = $1 RETURNING email`,
        [email, p.name, p.education, p.social, p.phoneNumber, p.address],
      );
      return rows.length;
    },
    isOwner,
    /** Makes a user admin; only an owner may ('not owner' otherwise). Returns the rows matched. */
    async makeAdmin(actor: CurrentUser, email: string): Promise<number | 'not owner'> {
      if (!isOwner(actor)) return 'not owner';
      return db.transaction(async (tx) => {
        const [before] = await tx.query<{ role: string }>('SELECT role FROM users WHERE email = $1 FOR UPDATE', [
          email,
        ]);
        if (!before) return 0;
        await tx.query(`UPDATE users SET role = 'admin' WHERE email = $1`, [email]);
        // The audit log records a change: making an admin of an admin changes nothing.
        if (before.role !== 'admin')
          await emit(tx, {
            type: 'user.made_admin',
            subject: email,
            actor: actor.email,
            data: { target: email, before: { role: before.role }, after: { role: 'admin' } },
          });
        return 1;
      });
    },
    /**
     * Deletes the user record (their orders and reviews stay, keyed by email, for the shop's books).
     * Owners are never deleted; an admin is removed only by an owner; the last admin never. One
     * transaction: the row, its audit event ('user.deleted', actor the admin), then the sign-in account:
     * if Firebase refuses, the row and the event stay as they were (rolled back), so there is never a
     * sign-in account that could come back with no record of its deletion; a row whose account is gone
     * (a failed commit) is the harmless side.
     */
    async remove(
      actor: CurrentUser,
      email: string,
      deleteSignIn: (uid: string) => Promise<void>,
    ): Promise<RemoveOutcome> {
      if (adminEmails.includes(email)) return 'owner';
      return db.transaction(async (tx) => {
        const { admins, target } = await lockForRemoval(tx, email);
        if (!target) return 'missing';
        if (target.role === 'admin' && !isOwner(actor)) return 'not owner';
        if (usableRole(target) === 'admin' && admins <= 1) return 'last admin';
        const [gone] = await tx.query<{ name: string; role: string }>(
          'DELETE FROM users WHERE email = $1 RETURNING name, role',
          [email],
        );
        await emit(tx, {
          type: 'user.deleted',
          subject: email,
          actor: actor.email,
          data: { target: email, before: { email, name: gone.name, role: gone.role }, after: null },
        });
        // Last, so nothing of ours can fail after the sign-in account is gone (it throws: all rolls back).
        if (target.firebase_uid) await deleteSignIn(target.firebase_uid);
        return 'deleted';
      });
    },
    /**
     * A user deletes their own account (DELETE /account), with remove()'s locks: owners never (by
     * address, whoever holds it), an admin only while another usable admin remains. In one transaction:
     * the row and the admins locked, then `work` (the flow's changes to the user's orders and reviews),
     * then the sign-in account, then the row. Anything that throws rolls every change back.
     */
    async removeOwn(
      user: CurrentUser,
      work: (tx: Queryable) => Promise<void>,
      deleteSignIn: (uid: string) => Promise<void>,
    ): Promise<Exclude<RemoveOutcome, 'not owner'>> {
      if (adminEmails.includes(user.email)) return 'owner';
      return db.transaction(async (tx) => {
        const { admins, target } = await lockForRemoval(tx, user.email);
        // Another account now holds this email (or the row is gone): nothing of this user is left to delete.
        if (!target || target.firebase_uid !== user.uid) return 'missing';
        if (usableRole(target) === 'admin' && admins <= 1) return 'last admin';
        await work(tx);
        if (target.firebase_uid) await deleteSignIn(target.firebase_uid);
        await tx.query('DELETE FROM users WHERE email = $1', [user.email]);
        return 'deleted';
      });
    },
  };
}
export type UsersService = ReturnType<typeof usersService>;
