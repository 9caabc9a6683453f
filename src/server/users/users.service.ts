import type { ProfileUpdate } from '../../lib/schemas.ts';
import type { ListPage, UserProfile } from '../../lib/entities.ts';
import { usableRole } from './user-rules.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { ChangeBus } from '../caching/changes.ts';
import { emit } from '../events/events.service.ts';
import type { CurrentUser } from '../types.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import {
  countUsers,
  deleteUser,
  lockForRemoval,
  lockRole,
  selectProfile,
  selectProfilePage,
  selectProfiles,
  selectRole,
  setAdmin,
  updateProfile,
  upsertUser,
  type UserKey,
} from './users.sql.ts';

const normalise = (u: UserProfile): UserProfile => ({ ...u, signUpDate: new Date(u.signUpDate).toISOString() });

/** What a delete did: the row is gone, or why it stays. */
export type RemoveOutcome = 'deleted' | 'missing' | 'owner' | 'not owner' | 'last admin';

export function usersService(db: Db, changes: Pick<ChangeBus, 'announce'>, adminEmails: string[]) {
  /** The shop's owners: the ADMIN_EMAILS addresses. Only they make or remove admins, and nobody removes them. */
  const isOwner = (user: CurrentUser) => user.role === 'admin' && adminEmails.includes(user.email);
  /**
   * After a write to `email`'s row committed: every server drops the row its signed-in checks keep
   * (user-rules.ts), so a role, a deletion or a new binding counts on the next request everywhere.
   */
  const changed = <T>(email: string, result: T): T => {
    changes.announce('users', [email]);
    return result;
  };
  return {
    /**
     * Creates or refreshes the user at each token exchange. Never takes a role from a client.
     * - The row belongs to one Firebase account (firebase_uid). An unbound row (seeded) is bound by
     *   the first verified token. Any other account for the email (the first deleted and the address
     *   signed up again, or an unverified claim on a seeded row) starts afresh: role user, empty profile.
     * - email_verified follows the token; roles above user are used only with it (user-rules.ts usableRole).
     * - ADMIN_EMAILS promotes only a verified token: anyone can make a password account for any address.
     */
    async upsertOnSignIn(identity: {
      email: string;
      uid: string;
      name?: string;
      emailVerified: boolean;
    }): Promise<void> {
      const role = identity.emailVerified && adminEmails.includes(identity.email) ? 'admin' : 'user';
      await upsertUser(db, { ...identity, name: identity.name ?? '', role });
      changes.announce('users', [identity.email]);
    },
    /** Whether the user can act as an admin now: the admin role and a verified email. */
    async isAdmin(email: string): Promise<boolean> {
      const row = await selectRole(db, email);
      return row ? usableRole(row) === 'admin' : false;
    },
    async get(email: string): Promise<UserProfile | undefined> {
      const user = await selectProfile(db, email);
      return user && normalise(user);
    },
    async list(): Promise<UserProfile[]> {
      return (await selectProfiles(db)).map(normalise);
    },
    /** One page of list()'s order, after `after` (users_sign_up_idx makes it an index range). */
    async page({ limit, after }: PageAsk<UserKey>, search?: string): Promise<ListPage<UserProfile>> {
      // Emails are kept in lower case; the search's %, _ and \ are matched as themselves.
      const pattern = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : undefined;
      const rows = await selectProfilePage(db, limit, pattern, after);
      const total = await countUsers(db, pattern);
      return listPage(
        rows,
        limit,
        total,
        (u): UserKey => [u.keyMicros, u.email],
        ({ keyMicros: _key, ...u }) => normalise(u),
      );
    },
    async update(email: string, p: ProfileUpdate): Promise<number> {
      return changed(email, await updateProfile(db, email, p));
    },
    isOwner,
    /** Makes a user admin; only an owner may ('not owner' otherwise). Returns the rows matched. */
    async makeAdmin(actor: CurrentUser, email: string): Promise<number | 'not owner'> {
      if (!isOwner(actor)) return 'not owner';
      const made = await db.transaction(async (tx) => {
        const before = await lockRole(tx, email);
        if (!before) return 0;
        await setAdmin(tx, email);
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
      return made ? changed(email, made) : made;
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
      const outcome = await db.transaction(async (tx): Promise<RemoveOutcome> => {
        const { admins, target } = await lockForRemoval(tx, email);
        if (!target) return 'missing';
        if (target.role === 'admin' && !isOwner(actor)) return 'not owner';
        if (usableRole(target) === 'admin' && admins <= 1) return 'last admin';
        const gone = (await deleteUser(tx, email))!;
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
      return outcome === 'deleted' ? changed(email, outcome) : outcome;
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
      const outcome = await db.transaction(async (tx): Promise<Exclude<RemoveOutcome, 'not owner'>> => {
        const { admins, target } = await lockForRemoval(tx, user.email);
        // Another account now holds this email (or the row is gone): nothing of this user is left to delete.
        if (!target || target.firebase_uid !== user.uid) return 'missing';
        if (usableRole(target) === 'admin' && admins <= 1) return 'last admin';
        await work(tx);
        if (target.firebase_uid) await deleteSignIn(target.firebase_uid);
        await deleteUser(tx, user.email);
        return 'deleted';
      });
      return outcome === 'deleted' ? changed(user.email, outcome) : outcome;
    },
  };
}
export type UsersService = ReturnType<typeof usersService>;
