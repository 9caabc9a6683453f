// Discount codes (issue 27): an admin makes a code worth a percentage or an amount off the goods, within
// dates, a minimum, a number of uses and once per customer. An order claims its code in its own
// transaction under the code's row lock, so `maxUses` holds however many buyers race for it; the use is a
// row per order, gone with its unpaid order (deleted: cascade; its hold ran out: releaseUse).
import type { Discount } from '../../lib/entities.ts';
import { messages } from '../../lib/messages.ts';
import { formatCents, toDollars } from '../../lib/money.ts';
import type { DiscountInput } from '../../lib/schemas.ts';
import type { DiscountRule } from '../../lib/totals.ts';
import type { Db, Queryable } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import { conflict, notPossible } from '../errors.ts';
import { newId } from '../db/ids.ts';
import {
  countUses,
  deleteDiscount,
  deleteUseOf,
  disableDiscount,
  insertDiscount,
  insertUse,
  isUsed,
  lockDiscount,
  selectByCode,
  selectDiscounts,
  type DiscountRow,
} from './discounts.sql.ts';

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

const discountJson = (r: DiscountRow): Discount => ({
  _id: r.id,
  code: r.code,
  percentOff: r.percent_off_hundredths === null ? null : r.percent_off_hundredths / 100,
  amountOff: r.amount_off_cents === null ? null : toDollars(r.amount_off_cents),
  minSubtotal: r.min_subtotal_cents === null ? null : toDollars(r.min_subtotal_cents),
  startsAt: iso(r.starts_at),
  expiresAt: iso(r.expires_at),
  maxUses: r.max_uses,
  oncePerCustomer: r.once_per_customer,
  disabled: r.disabled,
  uses: Number(r.uses ?? 0),
  createdAt: new Date(r.created_at).toISOString(),
});

/** The code as an order applies it. */
export interface ClaimedDiscount {
  id: string;
  code: string;
  rule: DiscountRule;
}

const ruleOf = (r: DiscountRow): DiscountRule =>
  r.percent_off_hundredths !== null
    ? { percentOffHundredths: r.percent_off_hundredths }
    : { amountOffCents: r.amount_off_cents! };

const refuse = (message: string) => notPossible(message, { discountCode: message });

/**
 * Whether `code` applies to an order of `subtotalCents` goods by `email` now; the 422 names why not.
 * With `lock` (placing), the code's row is locked until the order's transaction ends.
 */
export async function checkDiscount(
  q: Queryable,
  code: string,
  ask: { email: string | null; subtotalCents: number; now: Date },
  lock = false,
): Promise<ClaimedDiscount> {
  const row = await selectByCode(q, code.toUpperCase(), { lock });
  if (!row || row.disabled) throw refuse(messages.discountUnknown);
  if (row.starts_at && new Date(row.starts_at) > ask.now)
    throw refuse(messages.discountNotStarted(new Date(row.starts_at).toISOString().slice(0, 10)));
  if (row.expires_at && new Date(row.expires_at) <= ask.now) throw refuse(messages.discountExpired);
  if (row.min_subtotal_cents !== null && ask.subtotalCents < row.min_subtotal_cents)
    throw refuse(messages.discountBelowMinimum(formatCents(row.min_subtotal_cents)));
  if (row.max_uses !== null || (row.once_per_customer && ask.email)) {
    const { uses, mine } = await countUses(q, row.id, ask.email ?? '');
    if (row.max_uses !== null && uses >= row.max_uses) throw refuse(messages.discountUsedUp);
    if (row.once_per_customer && mine > 0) throw refuse(messages.discountUsedByYou);
  }
  return { id: row.id, code: row.code, rule: ruleOf(row) };
}

/** Records an order's use of its code (in the order's transaction, after checkDiscount with lock). */
export async function recordUse(tx: Queryable, discountId: string, orderId: string, email: string): Promise<void> {
  await insertUse(tx, discountId, orderId, email);
}

/** An unpaid order let go: its code's use is free again. */
export async function releaseUse(tx: Queryable, orderId: string): Promise<void> {
  await deleteUseOf(tx, orderId);
}

export function discountsService(db: Db) {
  return {
    /** Every code, newest first, with its uses (a shop has tens of codes, not thousands). */
    async list(): Promise<Discount[]> {
      return (await selectDiscounts(db)).map(discountJson);
    },
    /** Makes a code (409 when one of that name exists) with its audit event. */
    async create(input: DiscountInput, actor: string): Promise<string> {
      const id = newId();
      const created = await db.transaction(async (tx) => {
        const row = await insertDiscount(tx, id, input, actor);
        if (!row) return false;
        await emit(tx, {
          type: 'discount.created',
          subject: id,
          actor,
          data: { target: row.code, before: null, after: auditedDiscount(row) },
        });
        return true;
      });
      if (!created) throw conflict(messages.discountCodeTaken);
      return id;
    },
    /**
     * DELETE /discounts/{id}: a code never used goes; a used one is disabled, so the orders that used it
     * keep naming it. Either way it no longer applies. False: no such code.
     */
    async remove(id: string, actor: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const row = await lockDiscount(tx, id);
        if (!row) return false;
        if (await isUsed(tx, id)) await disableDiscount(tx, id);
        else await deleteDiscount(tx, id);
        await emit(tx, {
          type: 'discount.removed',
          subject: id,
          actor,
          data: { target: row.code, before: auditedDiscount(row), after: null },
        });
        return true;
      });
    },
  };
}
export type DiscountsService = ReturnType<typeof discountsService>;

/** What the audit log keeps of a code. */
const auditedDiscount = (r: DiscountRow) => {
  const d = discountJson(r);
  return {
    code: d.code,
    ...(d.percentOff !== null ? { percentOff: d.percentOff } : { amountOff: d.amountOff }),
    ...(d.minSubtotal !== null ? { minSubtotal: d.minSubtotal } : {}),
    ...(d.maxUses !== null ? { maxUses: d.maxUses } : {}),
  };
};
