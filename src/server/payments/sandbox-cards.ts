// Stripe's test cards and the messages Stripe gives for them, so the sandbox behaves like test mode.
import { cardFormatError, type CardInput } from '../../lib/cards.ts';

const SUCCEEDS = new Set(['4242424242424242', '4000056655665556', '5555555555554444', '378282246310005']);
const DECLINES: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
  '4000000000000119': 'An error occurred while processing your card. Try again in a little bit.',
};

/** Null when the card would be charged, else Stripe's error message for it. */
export function sandboxCardError(card: CardInput, now: Date): string | null {
  const formatError = cardFormatError(card, now);
  if (formatError) return formatError;
  const number = card.number.replace(/[\s-]/g, '');
  if (DECLINES[number]) return DECLINES[number];
  if (!SUCCEEDS.has(number)) return 'Your card was declined. Your request was in test mode, but used a non test card.';
  return null;
}
