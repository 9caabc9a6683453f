// A tool's reviews on its page (client:visible). The server renders the summary and, as children, the
// newest reviews into the page's HTML; once visible this island pages further ("Show more", keyset on the
// server) and lets a buyer post one (ReviewThisTool). After a post it shows the fresh first page and
// summary in place of the rendered ones (the page's kept HTML is dropped by the post on the server).
import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../client/infra/api';
import type { ToolReview, ToolReviewsPage } from '../lib/entities';
import { TOOL_PAGE_REVIEWS, TOOL_REVIEWS_PAGE_SIZE } from '../lib/limits';
import { formatAverage, reviewCount } from '../lib/ratings';
import { ReviewList } from './ui/ReviewList';
import { StarRating } from './ui/StarRating';
import { useHydrated } from './ui/useHydrated';
import { ReviewThisTool } from './ReviewThisTool';

interface Props {
  toolId: string;
  count: number;
  average: number | null;
  /** How many reviews the page rendered (the children), and the cursor after the last of them. */
  shown: number;
  nextCursor: string | null;
  /** Whether the page cut a long message short: then the island reads them whole once it shows. */
  clamped?: boolean;
  /** The reviews the page rendered, or its empty state. */
  children?: ReactNode;
}

export default function ToolReviews({ toolId, count, average, shown, nextCursor, clamped, children }: Props) {
  const hydrated = useHydrated();
  // After a post: the fresh first page, shown instead of the rendered one.
  const [fresh, setFresh] = useState<ToolReviewsPage | null>(null);
  const [more, setMore] = useState<ToolReview[]>([]);
  const [cursor, setCursor] = useState(nextCursor);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  const summary = fresh ?? { count, average };
  const showing = (fresh ? fresh.services.length : shown) + more.length;

  async function showMore() {
    if (!cursor) return;
    setLoading(true);
    setFailed(false);
    try {
      const page = await api.reviews.ofTool({
        params: { id: toolId },
        query: { limit: TOOL_REVIEWS_PAGE_SIZE, cursor },
      });
      setMore((old) => [...old, ...page.services]);
      setCursor(page.nextCursor);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }

  /** A review was posted: read the first page again (its kept copies were dropped by the post). */
  async function refresh(): Promise<boolean> {
    try {
      const page = await api.reviews.ofTool(
        { params: { id: toolId }, query: { limit: TOOL_PAGE_REVIEWS } },
        { cache: 'no-cache' },
      );
      setFresh(page);
      setMore([]);
      setCursor(page.nextCursor);
      return true;
    } catch {
      return false;
    }
  }

  useEffect(() => {
    if (!clamped) return;
    let current = true;
    api.reviews
      .ofTool({ params: { id: toolId }, query: { limit: shown } })
      .then((page) => {
        if (!current) return;
        setFresh(page);
        setCursor(page.nextCursor);
      })
      .catch(() => {}); // The cut messages stay cut; everything else works.
    return () => {
      current = false;
    };
  }, [clamped, toolId, shown]);

  return (
    <div className="grid gap-8 lg:grid-cols-[18rem_1fr] lg:gap-12">
      <div className="space-y-6">
        {summary.count > 0 && summary.average !== null ? (
          <div className="flex items-center gap-4" data-testid="reviews-summary">
            <p className="text-4xl leading-tight font-black">{formatAverage(summary.average)}</p>
            <div>
              <StarRating rating={summary.average} />
              <p className="mt-1 text-sm text-steel-600">out of 5 · {reviewCount(summary.count)}</p>
            </div>
          </div>
        ) : null}
        <ReviewThisTool toolId={toolId} hydrated={hydrated} onPosted={refresh} />
      </div>
      <div className="min-w-0">
        {fresh ? <ReviewList reviews={fresh.services} /> : children}
        {more.length > 0 && <ReviewList reviews={more} className="mt-4" />}
        {failed && (
          <p role="alert" className="mt-4 text-sm text-danger">
            Could not load more reviews. Please try again.
          </p>
        )}
        {summary.count > 0 && (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <p className="text-sm text-steel-600" aria-live="polite">
              Showing {showing} of {reviewCount(summary.count)}
            </p>
            {cursor && (
              <button
                type="button"
                className="btn btn-outline"
                disabled={!hydrated || loading}
                aria-busy={loading || undefined}
                onClick={showMore}
              >
                {loading ? 'Loading reviews…' : 'Show more reviews'}
              </button>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
