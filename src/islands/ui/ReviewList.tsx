import { dateFormat } from '../../lib/dates';
import type { ToolReview } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { formatRating } from '../../lib/ratings';
import { StarRating } from './StarRating';

// In UTC, so the page rendered on the server and the island in any browser say the same day.
const day = dateFormat({ dateStyle: 'medium', timeZone: 'UTC' });

/** The reviews of a tool, newest first: stars, who, a 'Verified buyer' badge, when, what they said. */
export function ReviewList({ reviews, className = '' }: { reviews: ToolReview[]; className?: string }) {
  return (
    <ol className={`space-y-4 ${className}`}>
      {reviews.map((r) => (
        <li key={r._id} className="card p-5" data-review={r._id}>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <StarRating rating={r.ratings} />
            <span className="text-sm font-semibold text-steel-700">{formatRating(r.ratings)}</span>
          </div>
          <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span className="font-bold break-words">{r.name}</span>
            {r.verified && (
              <span className="badge gap-1 bg-green-50 text-success ring-1 ring-green-200 ring-inset">
                <svg width="12" height="12" viewBox="0 0 20 20" aria-hidden="true" className="fill-current">
                  <path d="M8 13.6 4.4 10 3 11.4l5 5 9-9L15.6 6z" />
                </svg>
                {messages.verifiedBuyer}
              </span>
            )}
            <time dateTime={r.createdAt} className="text-steel-600">
              {day(new Date(r.createdAt))}
            </time>
          </p>
          <p className="mt-2 text-sm break-words whitespace-pre-line text-steel-700">{r.Messege}</p>
        </li>
      ))}
    </ol>
  );
}
