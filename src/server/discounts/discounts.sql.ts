// The statements over `discounts` and `discount_uses`. discounts.service.ts owns the rules: when a code
// applies, and whether a removed code goes or is disabled.
import { toCents } from '../../lib/money.ts';
import type { DiscountInput } from '../../lib/schemas.ts';
import type { Queryable } from '../db/client.ts';

export interface DiscountRow {
  id: string;
  code: string;
  percent_off_hundredths: number | null;
  amount_off_cents: number | null;
  min_subtotal_cents: number | null;
  starts_at: string | Date | null;
  expires_at: string | Date | null;
  max_uses: number | null;
  once_per_customer: boolean;
  disabled: boolean;
  created_at: string | Date;
  uses?: number;
}

/** The code named `code` (as stored: upper case); `lock` holds its row until the transaction ends. */
export const selectByCode = async (db: Queryable, code: string, { lock = false } = {}) =>
  (await db.query<DiscountRow>(`SELECT * FROM discounts WHERE code = $1${lock ? ' FOR UPDATE' : ''}`, [code]))[0] as
    DiscountRow | undefined;

/** How many orders use the code, and how many of them are `email`'s. */
export const countUses = async (db: Queryable, discountId: string, email: string) =>
  (
    await db.query<{ uses: number; mine: number }>(
      `SELECT count(*)::int AS uses, count(*) FILTER (WHERE email = $2)::int AS mine FROM discount_uses WHERE discount_id = $1`,
      [discountId, email],
    )
  )[0];

export async function insertUse(db: Queryable, discountId: string, orderId: string, email: string): Promise<void> {
  await db.query('INSERT INTO discount_uses (discount_id, order_id, email) VALUES ($1, $2, $3)', [
    discountId,
    orderId,
    email,
  ]);
}

export async function deleteUseOf(db: Queryable, orderId: string): Promise<void> {
  await db.query('DELETE FROM discount_uses WHERE order_id = $1', [orderId]);
}

/** Every code, newest first, with its uses. */
export const selectDiscounts = (db: Queryable) =>
  db.query<DiscountRow>(
    `SELECT d.*, (SELECT count(*)::int FROM discount_uses u WHERE u.discount_id = d.id) AS uses FROM discounts d ORDER BY d.seq DESC`,
  );

/** A new code; undefined when one of that name exists (nothing written). */
export const insertDiscount = async (db: Queryable, id: string, input: DiscountInput, createdBy: string) =>
  (
    await db.query<DiscountRow>(
      `INSERT INTO discounts (id, code, percent_off_hundredths, amount_off_cents, min_subtotal_cents, starts_at, expires_at, max_uses,
         once_per_customer, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (code) DO NOTHING RETURNING *`,
      [
        id,
        input.code,
        input.percentOff === undefined ? null : Math.round(input.percentOff * 100),
        input.amountOff === undefined ? null : toCents(input.amountOff),
        input.minSubtotal === undefined ? null : toCents(input.minSubtotal),
        input.startsAt ?? null,
        input.expiresAt ?? null,
        input.maxUses ?? null,
        input.oncePerCustomer,
        createdBy,
      ],
    )
  )[0] as DiscountRow | undefined;

/** One code, its row locked until the transaction ends. */
export const lockDiscount = async (db: Queryable, id: string) =>
  (await db.query<DiscountRow>('SELECT * FROM discounts WHERE id = $1 FOR UPDATE', [id]))[0] as DiscountRow | undefined;

export const isUsed = async (db: Queryable, id: string) =>
  (await db.query('SELECT 1 FROM discount_uses WHERE discount_id = $1 LIMIT 1', [id])).length > 0;

export const disableDiscount = (db: Queryable, id: string) =>
  db.query('UPDATE discounts SET disabled = true WHERE id = $1', [id]);

export const deleteDiscount = (db: Queryable, id: string) => db.query('DELETE FROM discounts WHERE id = $1', [id]);
