import { describe, expect, it } from 'vitest';
import { discountEffect, discountState, discountUses } from '../../src/lib/discount-state';

const now = new Date('2026-05-10T12:00:00Z');
const base = { disabled: false, uses: 0, maxUses: null, startsAt: null, expiresAt: null };

describe('a discount code as the Discounts screen shows it', () => {
  it.each([
    [{}, 'Active'],
    [{ startsAt: '2026-05-11T00:00:00.000Z' }, 'Scheduled'],
    [{ startsAt: '2026-05-10T00:00:00.000Z', expiresAt: '2026-05-11T00:00:00.000Z' }, 'Active'],
    [{ expiresAt: '2026-05-10T12:00:00.000Z' }, 'Expired'],
    [{ uses: 10, maxUses: 10 }, 'Used up'],
    [{ uses: 9, maxUses: 10 }, 'Active'],
    [{ disabled: true, uses: 10, maxUses: 10 }, 'Disabled'],
    [{ uses: 10, maxUses: 10, expiresAt: '2026-01-01T00:00:00.000Z' }, 'Used up'],
  ])('%o is %s', (limits, state) => {
    expect(discountState({ ...base, ...limits }, now)).toBe(state);
  });
  it('says what it gives and how often it was used', () => {
    expect(discountEffect({ percentOff: 12.5, amountOff: null })).toBe('12.5% off');
    expect(discountEffect({ percentOff: null, amountOff: 5 })).toBe('$5.00 off');
    expect(discountUses({ uses: 3, maxUses: 10 })).toBe('3 of 10 used');
    expect(discountUses({ uses: 3, maxUses: null })).toBe('3 used');
  });
});
