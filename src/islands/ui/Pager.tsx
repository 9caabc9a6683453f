// Previous / Next under a dashboard table, with where the shown rows sit in the whole list. Shown only
// when the list is longer than one page.
import type { PagerState } from './usePagedList';

const count = (n: number) => n.toLocaleString('en-US');

export interface PagerProps {
  label: string;
  pager: PagerState;
}

export function Pager({ label, pager }: PagerProps) {
  const { page, size, shown, total, hasPrevious, hasNext, busy, previous, next } = pager;
  if (!hasPrevious && !hasNext) return null;
  const from = page * size + 1;
  const pages = Math.max(page + 1, Math.ceil(total / size));
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-steel-600" aria-live="polite">
        {shown > 0 ? `${count(from)}–${count(from + shown - 1)} of ${count(total)}` : `None of ${count(total)}`}
        <span className="sr-only">
          , page {count(page + 1)} of {count(pages)}
        </span>
      </p>
      <span className="flex gap-2">
        {(
          [
            ['Previous', hasPrevious, previous],
            ['Next', hasNext, next],
          ] as const
        ).map(([word, can, go]) => (
          <button
            key={word}
            type="button"
            className="btn btn-outline btn-sm"
            disabled={!can}
            aria-disabled={busy || undefined}
            onClick={go}
          >
            {word}
            <span className="sr-only"> page</span>
          </button>
        ))}
      </span>
    </nav>
  );
}
