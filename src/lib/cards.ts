// Card number checks shared by the sandbox card form (browser) and the sandbox gateway (server).
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode?: string;
}

/** Stripe's wording for a card that cannot even be sent (what createPaymentMethod reports). */
export function cardFormatError(card: CardInput, now = new Date()): string | null {
  const number = card.number.replace(/[\s-]/g, '');
  if (!number) return 'Your card number is incomplete.';
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) return 'Your card number is invalid.';
  if (!card.expMonth || !card.expYear) return "Your card's expiration date is incomplete.";
  if (!(card.expMonth >= 1 && card.expMonth <= 12)) return "Your card's expiration month is invalid.";
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (year < now.getUTCFullYear()) return "Your card's expiration year is in the past.";
  if (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1)
    return "Your card's expiration date is in the past.";
  if (!/^\d{3,4}$/.test(card.cvc)) return "Your card's security code is incomplete.";
  return null;
}

/**
 * The expiry as the buyer types it, shown as Stripe's Elements show it: 'MM / YY'. '1230' becomes
 * '12 / 30', a first digit above 1 is a month ('4' → '04 / '), and deleting back over the separator
 * removes the month's last digit instead of being undone by the formatting.
 */
export function formatExpiry(typed: string, before = ''): string {
  let digits = typed.replace(/\D/g, '').slice(0, 4);
  const deleting = typed.length < before.length;
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (deleting && before.endsWith(' / ') && digits.length === 2) return digits.slice(0, 1);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits} / `;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** A card number as typed, in groups of four digits (at most 19 digits). */
export const formatCardNumber = (typed: string): string =>
  typed
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** The month and two-digit or four-digit year of an expiry typed as 'MM / YY' (0 where missing). */
export function parseExpiry(expiry: string): { expMonth: number; expYear: number } {
  const [month = '', year = ''] = expiry.split('/');
  return { expMonth: Number(month.trim()) || 0, expYear: Number(year.trim()) || 0 };
}
