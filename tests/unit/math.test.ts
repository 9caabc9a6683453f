import { describe, expect, it } from 'vitest';
import { authErrorMessage } from '../../src/lib/auth-errors';
import { cardFormatError, luhnValid } from '../../src/lib/cards';
import { messages } from '../../src/lib/messages';
import { formatCents, orderTotalCents, toCents } from '../../src/lib/money';
import { pageCount } from '../../src/lib/pagination';
import { fullStars } from '../../src/lib/ratings';
import { sandboxCardError } from '../../src/server/payments/sandbox-cards';

describe('reviews pagination (spec point 4)', () => {
  it.each([
    [0, 5, 1],
    [4, 5, 1],
    [5, 5, 1],
    [6, 5, 2],
    [42, 5, 9],
    [42, 20, 3],
    [40, 2, 20],
  ])('%i reviews in pages of %i make %i pages', (total, size, pages) => {
    expect(pageCount(total, size)).toBe(pages);
  });
  it('shows whole stars from 0 to 5', () => {
    expect([0, 0.4, 2.5, 4.49, 4.5, 5, 7].map(fullStars)).toEqual([0, 0, 3, 4, 5, 5, 5]);
  });
});

describe('money', () => {
  it('keeps totals exact in cents', () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(orderTotalCents(3, 1999)).toBe(5997);
    expect(formatCents(123456)).toBe('$1,234.56');
  });

  it('writes dollars as Intl does for en-US, without ICU', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const samples = [0, -0, 1, 5, 10, 99, 100, 101, 999, 1000, 99999, 100000, 123456, 100000000, 123456789012];
    for (const cents of [...samples, ...samples.map((c) => -c), 0.5, 1.5, 2.5, -0.5, -2.5, 12.345, 99.5, 199.999])
      expect(formatCents(cents), String(cents)).toBe(usd.format(cents / 100));
    for (let i = 0; i < 2000; i++) {
      const cents = Math.round((Math.random() - 0.3) * 10 ** (1 + (i % 12)));
      expect(formatCents(cents), String(cents)).toBe(usd.format(cents / 100));
    }
  });
});

describe('auth error toasts (spec point 8)', () => {
  it.each([
    ['auth/invalid-email', messages.authInvalidEmail],
    ['auth/wrong-password', messages.authWrongPassword],
    ['auth/invalid-credential', messages.authWrongPassword],
    ['auth/email-already-in-use', messages.authEmailInUse],
    ['auth/popup-closed-by-user', messages.authPopupClosed],
    ['auth/too-many-requests', messages.authTooManyRequests],
    ['auth/network-request-failed', messages.authOther],
  ])('%s → %s', (code, text) => {
    expect(authErrorMessage({ code })).toBe(text);
  });
  it('falls back for anything that is not an auth error', () => {
    expect(authErrorMessage(new Error('x'))).toBe(messages.authOther);
    expect(authErrorMessage(null)).toBe(messages.authOther);
  });
});

describe('sandbox cards behave like Stripe test mode', () => {
  const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: '123' });
  const now = new Date('2026-11-22T00:00:00Z');
  it('checks numbers with Luhn', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });
  it.each([
    ['4242 4242 4242 4242', null],
    ['5555555555554444', null],
    ['4000000000000002', 'Your card was declined.'],
    ['4000000000009995', 'Your card has insufficient funds.'],
    ['4000000000000069', 'Your card has expired.'],
    ['4242424242424241', 'Your card number is invalid.'],
  ])('%s → %s', (number, error) => {
    expect(sandboxCardError(card(number), now)).toBe(error);
  });
  it('refuses past or incomplete expiry and short CVCs before sending', () => {
    expect(cardFormatError({ ...card('4242424242424242'), expYear: 2025 }, now)).toBe(
      "Your card's expiration year is in the past.",
    );
    expect(cardFormatError({ ...card('4242424242424242'), expMonth: 0 }, now)).toBe(
      "Your card's expiration date is incomplete.",
    );
    expect(cardFormatError({ ...card('4242424242424242'), cvc: '1' }, now)).toBe(
      "Your card's security code is incomplete.",
    );
  });
});
