// The rules a form checks as the user types, without zod: pages that need only these (the tool
// page's purchase form) do not load the schema library. schemas.ts builds the API's checks on them.
import { LIMITS, RATING_MAX, RATING_MIN, REVIEW_NAME_MAX } from './limits.ts';
import { messages } from './messages.ts';

/**
 * Spec point 5: text, @, text, dot, text (no space and no second @ anywhere, a dot inside the domain).
 * The same strings as /^[^\s@]+@[^\s@]+\.[^\s@]+$/, checked in one pass: that pattern backtracks over
 * every dot of the domain, so 'a@' + 60,000 dots + '@' took seconds (issue 23).
 */
export function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at < 1 || value.includes('@', at + 1) || /\s/.test(value)) return false;
  // The first dot after the domain's first character; it must not be the last character.
  const dot = value.indexOf('.', at + 2);
  return dot !== -1 && dot < value.length - 1;
}
/** Spec point 5: optional +88 or 0088, then 01, a digit 3 to 9, then 8 digits. */
export const PHONE_PATTERN = /^(?:\+88|0088)?01[3-9]\d{8}$/;

/** Spec point 5 purchase rules, checked against the live tool. Returns the message or null. */
export function quantityError(
  quantity: number,
  tool: { minimumOrderQuantity: number; availableQuantity: number },
): string | null {
  if (!Number.isFinite(quantity) || quantity < tool.minimumOrderQuantity) return messages.quantityBelowMinimum;
  if (quantity > tool.availableQuantity) return messages.quantityAboveAvailable;
  return null;
}

/** The input for a quantity of a tool (its page's cart form, the purchase form): whole units, from the minimum order. */
export const quantityInput = (tool: { minimumOrderQuantity: number }) =>
  ({ type: 'number', inputMode: 'numeric', step: 1, min: tool.minimumOrderQuantity }) as const;

/** Spec points 5 and 9: a rating from 1 to 5 in steps of 0.01. */
export function isRating(value: number): boolean {
  return (
    Number.isFinite(value) &&
    value >= RATING_MIN &&
    value <= RATING_MAX &&
    Math.abs(Math.round(value * 100) - value * 100) < 1e-6
  );
}

/**
 * A review form's messages per field (spec point 5: name required and at most 20 characters, rating 1 to
 * 5), empty when it may be sent. The API checks the same with reviewInputSchema.
 */
export function reviewErrors(values: { name: string; Messege: string; ratings: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = values.name.trim();
  if (!name) errors.name = messages.nameRequired;
  else if (name.length > REVIEW_NAME_MAX) errors.name = messages.reviewNameTooLong;
  const message = values.Messege.trim();
  if (!message) errors.Messege = messages.reviewMessageRequired;
  else if (message.length > LIMITS.message) errors.Messege = `At most ${LIMITS.message} characters`;
  if (values.ratings.trim() === '' || !isRating(Number(values.ratings))) errors.ratings = messages.ratingRange;
  return errors;
}
