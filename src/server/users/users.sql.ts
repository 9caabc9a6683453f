// The statements of users.service.ts over `users`. The service owns the rules: who is an owner or an
// admin, what a deletion may remove; user-rules.ts has the guards' lookup.
import type { UserProfile } from '../../lib/entities.ts';
import type { ProfileUpdate } from '../../lib/schemas.ts';
import type { Queryable } from '../db/client.ts';

const SELECT = `SELECT email, name, education, social, phone_number AS "phoneNumber", address,
  sign_up_date AS "signUpDate", role FROM users`;

/** A user's place in the list (newest first, then by email): sign-up time in whole microseconds, email. */
export type UserKey = [signUpMicros: string, email: string];
// Microseconds as text, exact both ways: a JavaScript Date keeps only milliseconds, and two sign-ups
// within one millisecond would otherwise straddle a page boundary.
const KEYED_SELECT = SELECT.replace(
  ' FROM users',
  `, (extract(epoch FROM sign_up_date) * 1000000)::bigint::text AS "keyMicros" FROM users`,
);
const at = (param: number) => `('epoch'::timestamptz + $${param}::bigint * interval '1 microsecond')`;

export interface SignInIdentity {
  email: string;
  uid: string;
  name: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
}

/**
 * The row at each sign-in: the same account (its firebase_uid, or a verified token on an unbound row)
 * keeps its profile and role, any other starts afresh; `role` admin always applies (usersService.upsertOnSignIn).
 */
export async function upsertUser(db: Queryable, identity: SignInIdentity): Promise<void> {
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
    [identity.email, identity.uid, identity.name, identity.role, identity.emailVerified],
  );
}

export const selectRole = async (db: Queryable, email: string) =>
  (
    await db.query<{ role: 'user' | 'admin'; email_verified: boolean }>(
      'SELECT role, email_verified FROM users WHERE email = $1',
      [email],
    )
  )[0] as { role: 'user' | 'admin'; email_verified: boolean } | undefined;

export const selectProfile = async (db: Queryable, email: string) =>
  (await db.query<UserProfile>(`${SELECT} WHERE email = $1`, [email]))[0] as UserProfile | undefined;

/** Every user, newest first, then by email. */
export const selectProfiles = (db: Queryable) => db.query<UserProfile>(`${SELECT} ORDER BY sign_up_date DESC, email`);

/**
 * A page in selectProfiles' order after `after` (users_sign_up_idx makes it an index range), with each
 * row's key; one more row than `limit` (is there a next page). `pattern`: a LIKE pattern on the email.
 */
export function selectProfilePage(db: Queryable, limit: number, pattern: string | undefined, after?: UserKey) {
  const params: unknown[] = [limit + 1];
  const filters: string[] = [];
  if (pattern !== undefined) filters.push(`email LIKE $${params.push(pattern)}`);
  if (after)
    filters.push(
      `(sign_up_date < ${at(params.push(after[0]))} OR (sign_up_date = ${at(params.length)} AND email > $${params.push(after[1])}))`,
    );
  return db.query<UserProfile & { keyMicros: string }>(
    `${KEYED_SELECT} ${filters.length ? `WHERE ${filters.join(' AND ')}` : ''} ORDER BY sign_up_date DESC, email LIMIT $1`,
    params,
  );
}

/** How many users there are, or whose email is LIKE `pattern`. */
export const countUsers = async (db: Queryable, pattern: string | undefined) =>
  (pattern !== undefined
    ? await db.query<{ total: number }>('SELECT count(*)::int AS total FROM users WHERE email LIKE $1', [pattern])
    : await db.query<{ total: number }>('SELECT count(*)::int AS total FROM users'))[0].total;

/** Sets the profile's fields; how many rows matched (0: no such user). */
export const updateProfile = async (db: Queryable, email: string, p: ProfileUpdate) =>
  (
    await db.query(
      `UPDATE users SET name = $2, education = $3, social = $4, phone_number = $5, address = $6
       WHERE email = $1 RETURNING email`,
      [email, p.name, p.education, p.social, p.phoneNumber, p.address],
    )
  ).length;

/** The user's role, their row locked until the transaction ends. */
export const lockRole = async (db: Queryable, email: string) =>
  (await db.query<{ role: string }>('SELECT role FROM users WHERE email = $1 FOR UPDATE', [email]))[0] as
    { role: string } | undefined;

export const setAdmin = (db: Queryable, email: string) =>
  db.query(`UPDATE users SET role = 'admin' WHERE email = $1`, [email]);

/**
 * The first step of every user deletion: the admins locked first, in one order, then the target. Two
 * deletes at once then queue up instead of deadlocking, and the count they read is the count after
 * the other's commit. Only admins who can act (verified) count: an unverified admin row cannot run the store.
 */
export async function lockForRemoval(tx: Queryable, email: string) {
  const admins = await tx.query(
    `SELECT email FROM users WHERE role = 'admin' AND email_verified ORDER BY email FOR UPDATE`,
  );
  const [target] = await tx.query<{ role: 'user' | 'admin'; email_verified: boolean; firebase_uid: string | null }>(
    'SELECT role, email_verified, firebase_uid FROM users WHERE email = $1 FOR UPDATE',
    [email],
  );
  return { admins: admins.length, target };
}

/** Deletes the user's row; what it held, for the audit event (undefined: no such row). */
export const deleteUser = async (db: Queryable, email: string) =>
  (
    await db.query<{ name: string; role: string }>('DELETE FROM users WHERE email = $1 RETURNING name, role', [email])
  )[0] as { name: string; role: string } | undefined;
