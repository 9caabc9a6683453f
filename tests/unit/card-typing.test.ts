// The sandbox card form formats what the buyer types as Stripe's Elements do (issue 24: '1230' was
// refused as 'incomplete').
import { describe, expect, it } from 'vitest';
import { cardFormatError, formatCardNumber, formatExpiry, parseExpiry } from '../../src/lib/cards';

/** Types `keys` one at a time, as a browser sends input events. */
const typeInto = (keys: string) => [...keys].reduce((value, key) => formatExpiry(value + key, value), '');

describe('expiry as typed', () => {
  it.each([
    ['1230', '12 / 30'],
    ['12/30', '12 / 30'],
    ['12 / 30', '12 / 30'],
    ['0431', '04 / 31'],
    ['4', '04 / '],
    ['431', '04 / 31'],
    ['1', '1'],
    ['12', '12 / '],
    ['123099', '12 / 30'],
  ])('%s shows as %j', (typed, shown) => {
    expect(typeInto(typed)).toBe(shown);
  });

  it('pasted or filled at once', () => {
    expect(formatExpiry('1230')).toBe('12 / 30');
    expect(formatExpiry('12/30')).toBe('12 / 30');
  });

  it('deleting back over the separator removes the month digit before it', () => {
    expect(formatExpiry('12 /', '12 / ')).toBe('1');
    expect(formatExpiry('12 / 3', '12 / 30')).toBe('12 / 3');
    expect(formatExpiry('12 / ', '12 / 3')).toBe('12');
  });

  it('parses into month and year that the card check accepts', () => {
    expect(parseExpiry('12 / 30')).toEqual({ expMonth: 12, expYear: 30 });
    expect(parseExpiry('12 / ')).toEqual({ expMonth: 12, expYear: 0 });
    const card = { number: formatCardNumber('4242424242424242'), ...parseExpiry(formatExpiry('1230')), cvc: '123' };
    expect(cardFormatError(card, new Date('2026-11-25T00:00:00Z'))).toBeNull();
  });
});

describe('card number as typed', () => {
  it('groups digits by four and drops the rest', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 42')).toBe('4242 4242 42');
    expect(formatCardNumber('4'.repeat(25))).toBe('4444 4444 4444 4444 444');
  });
});
