// Demo data for an empty store: the catalogue, reviews and (beside the Auth emulator only) the two demo users.
import { DEMO_ADMIN, DEMO_SHOPPER } from '../config.ts';
import { createHash } from 'node:crypto';
import type { Db } from './client.ts';
import { seedReviews, seedTools } from './seed-data.ts';

/** Seed ids derive from the content, so every fresh store has the same tool URLs. */
const seedId = (kind: string, key: string) => createHash('sha256').update(`${kind}:${key}`).digest('hex').slice(0, 24);

/**
 * demoAccounts: the demo admin and shopper rows, only in emulator mode (config.emulator), where npm start
 * makes their sign-in accounts. On a real Firebase project anyone could sign up as admin@ironcrest.test.
 */
export async function seedIfEmpty(
  db: Db,
  { demoAccounts }: { demoAccounts: boolean } = { demoAccounts: false },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Lock so two servers starting on one empty PostgreSQL seed once.
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(727275)');
    const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM tools');
    if (n > 0) return false;
    for (const t of seedTools) {
      const id = seedId('tool', t.name);
      await tx.query(
        `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity, price_breaks, pack_size)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          id,
          t.name,
          t.description,
          t.img,
          t.priceCents,
          t.minimumOrderQuantity,
          t.availableQuantity,
          JSON.stringify(t.priceBreaks ?? []),
          t.packSize ?? 1,
        ],
      );
      // The ledger starts with the stock, so its balance equals the tool's from the first row.
      await tx.query(
        `INSERT INTO stock_ledger (tool_id, delta, reason, balance) VALUES ($1, $2, 'admin restock', $2)`,
        [id, t.availableQuantity],
      );
    }
    for (const r of seedReviews) {
      await tx.query('INSERT INTO reviews (id, name, message, ratings, added_by) VALUES ($1, $2, $3, $4, $5)', [
        seedId('review', `${r.addedBy}:${r.name}`),
        r.name,
        r.message,
        r.ratings,
        r.addedBy,
      ]);
    }
    if (!demoAccounts) return true;
    for (const [user, role] of [
      [DEMO_ADMIN, 'admin'],
      [DEMO_SHOPPER, 'user'],
    ] as const) {
      await tx.query('INSERT INTO users (email, name, role) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING', [
        user.email,
        user.name,
        role,
      ]);
    }
    return true;
  });
}
