// Pages of the public (visible) reviews as ordinal ranges. Ordinals run 1..n without gaps (migration 2)
// and hidden reviews are few, so with their ordinals sorted in memory the count is n − hidden and the
// start of any page is found by a binary search over them: no count(*) or OFFSET over a million rows.

/**
 * The highest ordinal at or below which the visible review of newest-first rank `skip` (0-based) is
 * the first visible one, or 0 when fewer than skip + 1 reviews are visible.
 * `hidden` is ascending; every entry is in 1..n.
 */
export function topOrdinalForRank(n: number, hidden: readonly number[], skip: number): number {
  if (skip >= n - hidden.length) return 0;
  // With j hidden ordinals above it, the answer is n − skip − j. Going down the hidden list from the
  // newest (d_j = hidden[h − 1 − j]), d_j + j never grows, so the right j is the first with
  // d_j + j <= n − skip: every hidden ordinal before it lies above the answer, none from it on.
  const h = hidden.length;
  const target = n - skip;
  let lo = 0;
  let hi = h;
  while (lo < hi) {
    const j = (lo + hi) >>> 1;
    if (hidden[h - 1 - j] + j <= target) hi = j;
    else lo = j + 1;
  }
  return target - lo;
}
