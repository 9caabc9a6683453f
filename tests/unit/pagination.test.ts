import { describe, expect, it } from 'vitest';
import { GAP, pageWindow } from '../../src/lib/pagination';

const show = (current: number, pages: number) =>
  pageWindow(current, pages)
    .map((p) => (p === GAP ? '…' : String(p + 1)))
    .join(' ');

describe('page window (first, last, current ±2, ellipses)', () => {
  it('shows every page while there are few', () => {
    expect(show(0, 1)).toBe('1');
    expect(show(0, 2)).toBe('1 2');
    expect(show(3, 7)).toBe('1 2 3 4 5 6 7');
  });

  it('leaves out pages far from the current one, behind an ellipsis', () => {
    expect(show(0, 20)).toBe('1 2 3 … 20');
    expect(show(9, 20)).toBe('1 … 8 9 10 11 12 … 20');
    expect(show(19, 20)).toBe('1 … 18 19 20');
  });

  it('shows a page instead of an ellipsis that would hide only that page', () => {
    expect(show(4, 20)).toBe('1 2 3 4 5 6 7 … 20');
    expect(show(15, 20)).toBe('1 … 14 15 16 17 18 19 20');
  });

  it('clamps a current page outside the range', () => {
    expect(show(-3, 10)).toBe('1 2 3 … 10');
    expect(show(99, 10)).toBe('1 … 8 9 10');
    expect(pageWindow(0, 0)).toEqual([]);
  });

  it('stays within 15 buttons at any size, always with the first, the last and the current page', () => {
    for (const pages of [1, 2, 5, 9, 10, 11, 200_000]) {
      for (const current of [0, 1, 2, 3, 4, 5, Math.floor(pages / 2), pages - 3, pages - 2, pages - 1]) {
        if (current < 0 || current >= pages) continue;
        const slots = pageWindow(current, pages);
        const buttons = slots.filter((p) => p !== GAP);
        expect(slots.length).toBeLessThanOrEqual(9);
        expect(buttons.length).toBeLessThanOrEqual(15);
        expect(buttons).toContain(0);
        expect(buttons).toContain(pages - 1);
        expect(buttons).toContain(current);
        // Increasing, and never two ellipses in a row.
        expect(buttons).toEqual([...buttons].sort((a, b) => a - b));
        expect(slots.join(',')).not.toContain(`${GAP},${GAP}`);
      }
    }
  });
});
