import { fullStars } from '../../lib/ratings';

/** Read-only 0–5 stars (steps of 1), readable as text by screen readers. */
export function StarRating({ rating }: { rating: number }) {
  const stars = fullStars(rating);
  return (
    <span className="inline-flex items-center gap-0.5" role="img" aria-label={`Rated ${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <svg
          key={i}
          width="18"
          height="18"
          viewBox="0 0 20 20"
          aria-hidden="true"
          className={i <= stars ? 'fill-amber' : 'fill-steel-200'}
        >
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
      ))}
    </span>
  );
}
