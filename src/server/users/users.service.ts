import type { ProfileUpdate } from '../../lib/schemas';
import type { UserProfile } from '../../lib/entities';
import type { Db } from '../db/client';

export type { UserProfile };

const SELECT = `SELECT email, name, education, social, phone_number AS "phoneNumber", address,
  sign_up_date AS "signUpDate", role FROM users`;

const normalise = (u: UserProfile): UserProfile => ({ ...u, signUpDate: new Date(u.signUpDate).toISOString() });

export function usersService(db: Db, adminEmails: string[]) {
  return {
    /** Creates the user on their first token; admins listed in ADMIN_EMAILS are promoted. Never takes a role from a client. */
    async upsertOnSignIn(identity: { email: string; uid: string; name?: string }): Promise<void> {
      const role = adminEmails.includes(identity.email) ? 'admin' : 'user';
      await db.query(
        `INSERT INTO users (email, firebase_uid, name, role) VALUES ($1, $2, $3, $4)
         ON CONFLICT (email) DO UPDATE SET
           firebase_uid = EXCLUDED.firebase_uid,
           name = CASE WHEN users.name = '' THEN EXCLUDED.name ELSE users.name END,
           role = CASE WHEN EXCLUDED.role = 'admin' THEN 'admin' ELSE users.role END`,
        [identity.email, identity.uid, identity.name ?? '', role],
      );
    },
    async get(email: string): Promise<UserProfile | undefined> {
      const [user] = await db.query<UserProfile>(`${SELECT} WHERE email = $1`, [email]);
      return user && normalise(user);
    },
    async list(): Promise<UserProfile[]> {
      return (await db.query<UserProfile>(`${SELECT} ORDER BY sign_up_date DESC, email`)).map(normalise);
    },
    async update(email: string, p: ProfileUpdate): Promise<number> {
      const rows = await db.query(
        `UPDATE users SET name = $2, education = $3, social = $4, phone_number = $5, address = $6
         WHERE email = $1 RETURNING email`,
        [email, p.name, p.education, p.social, p.phoneNumber, p.address],
      );
      return rows.length;
    },
    async makeAdmin(email: string): Promise<number> {
      const rows = await db.query(`UPDATE users SET role = 'admin' WHERE email = $1 RETURNING email`, [email]);
      return rows.length;
    },
    /**
     * Deletes the user record (their orders and reviews stay, keyed by email, for the shop's books).
     * Refuses to remove the last admin. Returns the sign-in uid so the caller can remove the account.
     */
    async remove(email: string): Promise<{ deleted: number; uid: string | null; lastAdmin: boolean }> {
      return db.transaction(async (tx) => {
        // Lock the admins first, in one order, then the target: two admins deleting each other at
        // once then queue up instead of deadlocking (locking the target first made each wait on the other).
        const admins = await tx.query(`SELECT email FROM users WHERE role = 'admin' ORDER BY email FOR UPDATE`);
        const [target] = await tx.query<{ role: string; firebase_uid: string | null }>(
          'SELECT role, firebase_uid FROM users WHERE email = $1 FOR UPDATE',
          [email],
        );
        if (!target) return { deleted: 0, uid: null, lastAdmin: false };
        if (target.role === 'admin' && admins.length <= 1) return { deleted: 0, uid: null, lastAdmin: true };
        await tx.query('DELETE FROM users WHERE email = $1', [email]);
        return { deleted: 1, uid: target.firebase_uid, lastAdmin: false };
      });
    },
  };
}
export type UsersService = ReturnType<typeof usersService>;
