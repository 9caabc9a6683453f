/** Full stars to show for a rating (spec point 9: 0 to 5 in steps of 1). */
export function fullStars(rating: number): number {
  return Math.max(0, Math.min(5, Math.round(rating)));
}

/** A rating as text: at most two decimals, no trailing zeros (4.5, 5, 4.75). */
export const formatRating = (rating: number): string => String(Number(rating.toFixed(2)));

/** A tool's average as its page shows it, to one decimal (4.2). */
export const formatAverage = (average: number): string => average.toFixed(1);

/** "1 review", "12 reviews". */
export const reviewCount = (count: number): string => `${count} ${count === 1 ? 'review' : 'reviews'}`;
