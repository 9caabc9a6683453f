import { useEffect, useRef, useState } from 'react';
import { DEFAULT_REVIEW_PAGE_SIZE, REVIEW_PAGE_SIZES } from '../lib/limits';
import type { ReviewsPage } from '../lib/entities';
import { GAP, pageCount, pageWindow } from '../lib/pagination';
import { Spinner } from './ui/Spinner';
import { StarRating } from './ui/StarRating';
import { useHydrated } from './ui/useHydrated';

/** 'Our Reviews': page size 2/5/10/15/20 (default 5), zero-based pages, newest first. */
export default function ReviewsPaginator({ initial }: { initial: ReviewsPage }) {
  const [size, setSize] = useState<number>(DEFAULT_REVIEW_PAGE_SIZE);
  const [page, setPage] = useState(0);
  const [data, setData] = useState<ReviewsPage>(initial);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const first = useRef(true);
  const hydrated = useHydrated();

  useEffect(() => {
    const controller = new AbortController();
    // The first page came with the page's HTML; read it once more so reviews added since it was rendered appear.
    setLoading(!first.current);
    first.current = false;
    setError(null);
    import('../client/infra/api')
      .then(({ api }) => api.reviews.list({ query: { limit: size, pageNumber: page } }, { signal: controller.signal }))
      .then(setData)
      .catch((e: Error) => {
        if (e.name !== 'AbortError') setError('Could not load reviews. Please try again.');
      })
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [size, page]);

  const pages = pageCount(data.count, size);

  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-steel-600" aria-live="polite">
          {data.count} reviews {loading && <Spinner label="Loading reviews…" className="ml-2" />}
        </p>
        <label className="flex items-center gap-2 text-sm">
          <span>Reviews per page</span>
          <select
            className="input w-auto"
            disabled={!hydrated}
            value={size}
            onChange={(e) => {
              setSize(Number(e.target.value));
              setPage(0);
            }}
          >
            {REVIEW_PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && (
        <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-danger">
          {error}
        </p>
      )}
      {data.services.length === 0 && !loading ? (
        <p className="card p-8 text-center text-steel-600">No reviews yet. Be the first to share your experience.</p>
      ) : (
        <ul className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-3 ${loading ? 'opacity-60' : ''}`} data-testid="reviews">
          {data.services.map((r) => (
            <li key={r._id} className="card flex flex-col gap-2 p-5">
              <StarRating rating={r.ratings} />
              <p className="flex-1 text-sm text-steel-700">{r.Messege}</p>
              <p className="text-sm font-bold">{r.name}</p>
            </li>
          ))}
        </ul>
      )}
      {/* A window of pages (first, last, the current ±2), so a million reviews still make a handful of buttons. */}
      <nav aria-label="Review pages" className="mt-6 flex flex-wrap justify-center gap-2">
        {pageWindow(page, pages).map((slot, i) =>
          slot === GAP ? (
            <span key={`gap-${i}`} aria-hidden="true" className="min-w-9 self-end px-1 text-center text-steel-600">
              …
            </span>
          ) : (
            <button
              key={slot}
              type="button"
              disabled={!hydrated}
              onClick={() => setPage(slot)}
              aria-current={slot === page ? 'page' : undefined}
              aria-label={`Page ${slot + 1}`}
              className={`btn btn-sm min-w-9 ${slot === page ? 'btn-primary' : 'btn-outline'}`}
            >
              {slot + 1}
            </button>
          ),
        )}
      </nav>
    </div>
  );
}
