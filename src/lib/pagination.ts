/** Spec point 4: 1 page when total is below the page size, else total / size rounded up. */
export function pageCount(total: number, pageSize: number): number {
  if (pageSize <= 0 || total < pageSize) return 1;
  return Math.ceil(total / pageSize);
}

/** Full stars to show for a rating (spec point 9: 0 to 5 in steps of 1). */
export function fullStars(rating: number): number {
  return Math.max(0, Math.min(5, Math.round(rating)));
}
