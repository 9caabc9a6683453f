/** Spec point 4: 1 page when total is below the page size, else total / size rounded up. */
export function pageCount(total: number, pageSize: number): number {
  if (pageSize <= 0 || total < pageSize) return 1;
  return Math.ceil(total / pageSize);
}

/** An ellipsis in a page window: pages left out between two shown ones. */
export const GAP = 'gap';

/**
 * The page buttons to show out of `pages` (zero-based indexes, `current` among them): the first, the
 * last, the current ±`around`, and GAP where pages are left out. A gap that would hide one page shows
 * that page instead. At most 2·around + 5 entries (9 by default) however many pages there are.
 */
export function pageWindow(current: number, pages: number, around = 2): (number | typeof GAP)[] {
  if (pages <= 0) return [];
  const at = Math.min(Math.max(0, Math.trunc(current)), pages - 1);
  const shown = new Set([0, pages - 1]);
  for (let p = Math.max(0, at - around); p <= Math.min(pages - 1, at + around); p++) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const slots: (number | typeof GAP)[] = [];
  for (const [i, p] of sorted.entries()) {
    const before = sorted[i - 1];
    if (before !== undefined && p - before === 2) slots.push(p - 1);
    else if (before !== undefined && p - before > 2) slots.push(GAP);
    slots.push(p);
  }
  return slots;
}
