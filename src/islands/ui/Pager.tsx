// Previous / Next under a dashboard table, with where the shown rows sit in the whole list. Shown only
// when the list is longer than one page.
import type { PagerState } from './usePagedList';

const count = (n: number) => n.toLocaleString('en-US');

export function Pager({ label, pager }: { label: string; pager: PagerState }) {
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
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={!hasPrevious}
          aria-disabled={busy || undefined}
          onClick={previous}
        >
          Previous<span className="sr-only"> page</span>
        </button>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={!hasNext}
          aria-disabled={busy || undefined}
          onClick={next}
        >
          Next<span className="sr-only"> page</span>
        </button>
      </span>
    </nav>
  );
}
