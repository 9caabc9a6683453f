// Stripe's test cards and the messages Stripe gives for them, so the sandbox behaves like test mode.
export interface SandboxCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode?: string;
}

const SUCCEEDS = new Set(['4242424242424242', '4000056655665556', '5555555555554444', '378282246310005']);
const DECLINES: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
  '4000000000000119': 'An error occurred while processing your card. Try again in a little bit.',
};

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

/** Null when the card would be charged, else Stripe's error message for it. */
export function sandboxCardError(card: SandboxCard, now: Date): string | null {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) return 'Your card number is invalid.';
  if (!(card.expMonth >= 1 && card.expMonth <= 12)) return "Your card's expiration month is invalid.";
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (year < now.getUTCFullYear()) return "Your card's expiration year is in the past.";
  if (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1) return "Your card's expiration date is in the past.";
  if (!/^\d{3,4}$/.test(card.cvc)) return "Your card's security code is incomplete.";
  if (DECLINES[number]) return DECLINES[number];
  if (!SUCCEEDS.has(number)) return 'Your card was declined. Your request was in test mode, but used a non test card.';
  return null;
}
