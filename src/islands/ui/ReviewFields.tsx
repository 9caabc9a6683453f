import { RATING_MAX, RATING_MIN, RATING_STEP, REVIEW_NAME_MAX } from '../../lib/limits';
import { isRating } from '../../lib/review-rules';
import { Field, TextAreaField } from './Field';
import { StarRating } from './StarRating';
import type { FieldBinding } from './useForm';

interface Props {
  bind: (name: 'name' | 'Messege' | 'ratings') => FieldBinding;
  /** The rating typed so far: its stars show under the field once it is a valid rating. */
  rating: string;
  /** Ids apart from the page's other forms (the tool page also has the purchase form's Name field). */
  idPrefix?: string;
  rows?: number;
}

/** A review's three fields (spec point 5: name, message, rating 1–5 in steps of 0.01), on the tool page and the dashboard. */
export function ReviewFields({ bind, rating, idPrefix = 'field', rows = 4 }: Props) {
  const preview = Number(rating);
  return (
    <>
      <Field
        label="Name"
        id={`${idPrefix}-name`}
        autoComplete="name"
        hint={`Shown with your review, at most ${REVIEW_NAME_MAX} characters.`}
        {...bind('name')}
      />
      <TextAreaField
        label="Message"
        id={`${idPrefix}-Messege`}
        rows={rows}
        placeholder="What did you build, and how did the tool perform?"
        {...bind('Messege')}
      />
      <div className="max-w-xs">
        <Field
          label="Rating"
          id={`${idPrefix}-ratings`}
          type="number"
          inputMode="decimal"
          min={RATING_MIN}
          max={RATING_MAX}
          step={RATING_STEP}
          placeholder="4.5"
          hint={`From ${RATING_MIN} to ${RATING_MAX}; decimals allowed, e.g. 4.75`}
          {...bind('ratings')}
        />
        {rating.trim() !== '' && isRating(preview) && (
          <p className="mt-2">
            <StarRating rating={preview} />
          </p>
        )}
      </div>
    </>
  );
}
