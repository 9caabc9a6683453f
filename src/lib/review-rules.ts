// The review form's rules, without zod (the tool page's review form does not load the schema library;
// apart from rules.ts so the purchase form, which loads at once, does not carry them). schemas.ts builds
// the API's rating check on isRating.
import { LIMITS, RATING_MAX, RATING_MIN, REVIEW_NAME_MAX } from './limits.ts';
import { messages } from './messages.ts';

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
