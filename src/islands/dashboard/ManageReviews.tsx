// Manage reviews (admin; not in the spec): reviews are never deleted (their dense numbering makes
// every page of the home list an index range), so spam is hidden instead, and can be shown again.
import { useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { ModeratedReview } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { pageCount } from '../../lib/pagination';
import { Badge } from '../ui/Badge';
import { DataTable, type Column } from '../ui/DataTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { StarRating } from '../ui/StarRating';
import { Loaded } from '../ui/States';
import { useResource } from '../ui/useResource';

const PAGE_SIZE = 20;

export default function ManageReviews(_props: { params: Record<string, string> }) {
  const [page, setPage] = useState(0);
  const reviews = useResource(
    api.reviews.moderation,
    { query: { limit: PAGE_SIZE, pageNumber: page } },
    'Could not load the reviews. Please try again.',
  );
  const [changing, setChanging] = useState<string | null>(null);
  const pages = pageCount(reviews.data?.count ?? 0, PAGE_SIZE);

  async function setHidden(review: ModeratedReview, hidden: boolean) {
    setChanging(review._id);
    try {
      await api.reviews.hide({ params: { id: review._id }, body: { hidden } });
      reviews.update((data) => ({
        ...data,
        services: data.services.map((r) => (r._id === review._id ? { ...r, hidden } : r)),
      }));
      toast.success(hidden ? messages.reviewHidden : messages.reviewShown);
    } catch (error) {
      toast.error(errorMessage(error, messages.reviewModerationFailed));
    } finally {
      setChanging(null);
    }
  }

  const columns: Column<ModeratedReview>[] = [
    { header: 'Name', rowHeader: true, cell: (r) => r.name },
    { header: 'Review', cell: (r) => <span className="line-clamp-3 max-w-md break-words">{r.Messege}</span> },
    { header: 'Rating', cell: (r) => <StarRating rating={r.ratings} /> },
    { header: 'Added by', cell: (r) => <span className="break-all">{r.addedBy}</span> },
    {
      header: 'Status',
      cell: (r) => (r.hidden ? <Badge tone="danger">Hidden</Badge> : <Badge tone="success">Shown</Badge>),
    },
    {
      header: 'Action',
      className: 'sm:text-right',
      cell: (r) => (
        <button
          type="button"
          className={`btn btn-sm ${r.hidden ? 'btn-outline' : 'btn-danger'}`}
          disabled={changing !== null}
          aria-busy={changing === r._id || undefined}
          onClick={() => setHidden(r, !r.hidden)}
        >
          {r.hidden ? 'Show' : 'Hide'}
          <span className="sr-only"> the review by {r.name}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Manage Reviews" total={reviews.data?.count} noun="reviews">
        Every review, newest first. Hidden reviews stay here but leave the home page.
      </ScreenHeader>
      <Loaded data={reviews.data} error={reviews.error} onRetry={reviews.reload} label="Loading reviews…">
        {(data) => (
          <>
            <DataTable
              caption="Reviews"
              columns={columns}
              rows={data.services}
              busy={reviews.loading}
              empty="No reviews yet."
            />
            {pages > 1 && (
              <nav aria-label="Review pages" className="mt-6 flex items-center justify-center gap-3 text-sm">
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  disabled={page === 0 || reviews.loading}
                  onClick={() => setPage(page - 1)}
                >
                  Previous
                </button>
                <span aria-live="polite">
                  Page {page + 1} of {pages}
                </span>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  disabled={page + 1 >= pages || reviews.loading}
                  onClick={() => setPage(page + 1)}
                >
                  Next
                </button>
              </nav>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
