// Whether this server can be sent traffic: the database answers and can take writes (the disk has room,
// it is not read-only). Migrations ran before the app was built.
import type { Db } from '../db/client.ts';

export async function readiness(db: Db): Promise<{ ok: true } | { ok: false; reason: string }> {
  await db.query('SELECT 1');
  return db.writable();
}
