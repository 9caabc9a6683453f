/** Full stars to show for a rating (spec point 9: 0 to 5 in steps of 1). */
export function fullStars(rating: number): number {
  return Math.max(0, Math.min(5, Math.round(rating)));
}
