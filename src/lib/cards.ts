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
  if (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1) return "Your card's expiration date is in the past.";
  if (!/^\d{3,4}$/.test(card.cvc)) return "Your card's security code is incomplete.";
  return null;
}
