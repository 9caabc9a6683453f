// What a discount code is doing now (issue 27), for the Discounts screen: worked out from its dates and
// uses, so the list says why a code would refuse an order before a buyer finds out.
import type { Discount } from './entities.ts';
import { formatCents, toCents } from './money.ts';

export type DiscountState = 'Active' | 'Scheduled' | 'Expired' | 'Used up' | 'Disabled';

type Limits = Pick<Discount, 'disabled' | 'uses' | 'maxUses' | 'startsAt' | 'expiresAt'>;

/** Disabled first, then used up, expired, not started yet; else active. */
export function discountState(d: Limits, now = new Date()): DiscountState {
  if (d.disabled) return 'Disabled';
  if (d.maxUses !== null && d.uses >= d.maxUses) return 'Used up';
  if (d.expiresAt && now.getTime() >= Date.parse(d.expiresAt)) return 'Expired';
  if (d.startsAt && now.getTime() < Date.parse(d.startsAt)) return 'Scheduled';
  return 'Active';
}

/** "10% off" or "$5.00 off". */
export function discountEffect(d: Pick<Discount, 'percentOff' | 'amountOff'>): string {
  return d.percentOff !== null ? `${d.percentOff}% off` : `${formatCents(toCents(d.amountOff ?? 0))} off`;
}

/** "3 of 10 used", or "3 used" without a limit. */
export function discountUses(d: Pick<Discount, 'uses' | 'maxUses'>): string {
  return d.maxUses === null ? `${d.uses} used` : `${d.uses} of ${d.maxUses} used`;
}
