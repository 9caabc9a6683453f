// The public review pages skip hidden reviews by a binary search over their ordinals: checked against
// the obvious filter-and-slice on every small case.
import { describe, expect, it } from 'vitest';
import { topOrdinalForRank } from '../../src/server/reviews/visible-ordinals';

/** What a page starting at visible rank `skip` must show, the slow way. */
function expected(n: number, hidden: number[], skip: number, limit: number): number[] {
  const visible = [];
  for (let o = n; o >= 1; o--) if (!hidden.includes(o)) visible.push(o);
  return visible.slice(skip, skip + limit);
}

/** What the SQL does with the top ordinal: ordinal <= top AND NOT hidden ORDER BY ordinal DESC LIMIT limit. */
function fromTop(top: number, hidden: number[], limit: number): number[] {
  const rows = [];
  for (let o = top; o >= 1 && rows.length < limit; o--) if (!hidden.includes(o)) rows.push(o);
  return rows;
}

describe('topOrdinalForRank', () => {
  it('matches filter-and-slice for every hidden subset of up to 9 reviews, every page and size', () => {
    for (let n = 0; n <= 9; n++) {
      for (let mask = 0; mask < 1 << n; mask++) {
        const hidden = Array.from({ length: n }, (_, i) => i + 1).filter((o) => mask & (1 << (o - 1)));
        for (const limit of [1, 2, 3, 5]) {
          for (let page = 0; page * limit <= n + limit; page++) {
            const top = topOrdinalForRank(n, hidden, page * limit);
            expect(
              top > 0 ? fromTop(top, hidden, limit) : [],
              `n=${n} hidden=${hidden} limit=${limit} page=${page}`,
            ).toEqual(expected(n, hidden, page * limit, limit));
          }
        }
      }
    }
  });

  it('a far page of a million reviews with a thousand hidden is found at once', () => {
    const hidden = Array.from({ length: 1000 }, (_, i) => 1 + i * 997);
    const top = topOrdinalForRank(1_000_000, hidden, 5000 * 5);
    const above = hidden.filter((o) => o > top).length;
    expect(1_000_000 - top - above).toBe(25_000);
  });
});
