// Manage products (admin, spec point 2): total count; name, price and available quantity, with the
// spec's 'Cancel' button that deletes the product after confirmation. Issue 26: each product's Edit
// and Stock history, a Low stock badge below its level, and the tools below it first on demand (the
// sort kept in the address).
import { useState, type MouseEvent } from 'react';
import { api, enc, errorMessage } from '../../client/infra/api';
import { navigate } from '../../client/state/router';
import { toast } from '../../client/infra/toast';
import type { AdminTool } from '../../lib/entities';
import { thumbnailUrl } from '../../lib/image-variants';
import { formatCents, toCents } from '../../lib/money';
import { messages } from '../../lib/messages';
import { AppLink } from '../ui/AppLink';
import { Badge } from '../ui/Badge';
import { useConfirm } from '../ui/ConfirmDialog';
import { DataTable, type Column } from '../ui/DataTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { Loaded } from '../ui/States';
import { Pager } from '../ui/Pager';
import { usePagedList } from '../ui/usePagedList';
import { useUrlQuery } from '../ui/useUrlQuery';
import { ViewSelect } from '../ui/ViewSelect';

const VIEW_FIELDS = ['sort'] as const;

/** A dashboard link that moves inside the app (and still opens in a new tab). */
const go = (href: string) => (e: MouseEvent) => {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(href);
};

export default function ManageProducts(_props: { params: Record<string, string> }) {
  const [view, setView] = useUrlQuery(VIEW_FIELDS);
  const lowFirst = view.sort === 'low-stock';
  // An admin's page of the catalogue: its tools carry their low-stock levels (AdminTool).
  const tools = usePagedList(
    api.tools.list,
    { query: lowFirst ? { sort: 'low-stock' } : {} },
    'Could not load the products. Please try again.',
  );
  const { confirm, dialog } = useConfirm();
  const [deleting, setDeleting] = useState<string | null>(null);

  async function remove(tool: AdminTool) {
    const ok = await confirm({
      title: messages.confirmTitle,
      text: (
        <>
          <p>{messages.confirmIrreversible}</p>
          <p className="mt-2">
            Remove <strong>{tool.name}</strong> from the catalogue.
          </p>
        </>
      ),
      confirmLabel: 'Delete product',
    });
    if (!ok) return;
    setDeleting(tool._id);
    try {
      await api.tools.remove({ params: { id: tool._id } });
      tools.updateRows((list) => list.filter((t) => t._id !== tool._id));
      toast.success(`${tool.name} was removed from the catalogue`);
    } catch (error) {
      toast.error(errorMessage(error, 'The product could not be deleted. Please try again.'));
    } finally {
      setDeleting(null);
    }
  }

  const columns: Column<AdminTool>[] = [
    {
      header: 'Name',
      rowHeader: true,
      cell: (t) => (
        <span className="flex items-center gap-3 max-sm:flex-row-reverse">
          <img
            src={thumbnailUrl(t.img)}
            alt=""
            width="40"
            height="30"
            loading="lazy"
            className="h-10 w-12 shrink-0 rounded border border-steel-200 bg-steel-100 object-cover"
          />
          <span className="flex flex-col items-start gap-1 max-sm:items-end">
            <a
              href={`/tools/${enc(t._id)}`}
              className="text-ink underline decoration-steel-300 hover:text-amber-dark hover:decoration-amber-dark"
            >
              {t.name}
            </a>
            {t.lowStock && (
              <span title={`Below its low-stock level of ${t.lowStockUnits.toLocaleString('en-US')}`}>
                <Badge tone="warning">Low stock</Badge>
                <span className="sr-only"> (below {t.lowStockUnits.toLocaleString('en-US')} units)</span>
              </span>
            )}
          </span>
        </span>
      ),
    },
    {
      header: 'Price',
      className: 'sm:text-right tabular-nums',
      cell: (t) => (
        // One box: a stacked card's cell lays its children out in a row beside the label.
        <span className="block">
          {formatCents(toCents(t.price))}
          {t.priceBreaks.length > 0 && (
            <span className="block text-xs whitespace-nowrap text-steel-600">
              to {formatCents(toCents(t.priceBreaks[t.priceBreaks.length - 1].price))}, {t.priceBreaks.length}{' '}
              {t.priceBreaks.length === 1 ? 'break' : 'breaks'}
            </span>
          )}
        </span>
      ),
    },
    {
      header: 'Available quantity',
      className: 'sm:text-right tabular-nums',
      cell: (t) => t.availableQuantity.toLocaleString('en-US'),
    },
    {
      header: 'Action',
      className: 'sm:text-right',
      cell: (t) => (
        <span className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1 sm:justify-end">
          <button
            type="button"
            className="btn btn-danger btn-sm"
            disabled={deleting !== null}
            aria-busy={deleting === t._id || undefined}
            onClick={() => remove(t)}
          >
            {deleting === t._id ? 'Deleting…' : 'Cancel'}
            <span className="sr-only"> {t.name}</span>
          </button>
          <a
            href={`/dashboard/editproduct/${enc(t._id)}`}
            className="text-sm font-semibold whitespace-nowrap text-amber-dark"
            onClick={go(`/dashboard/editproduct/${enc(t._id)}`)}
          >
            Edit<span className="sr-only"> {t.name}</span>
          </a>
          <a
            href={`/dashboard/stock/${enc(t._id)}`}
            className="text-sm font-semibold whitespace-nowrap text-amber-dark"
            onClick={go(`/dashboard/stock/${enc(t._id)}`)}
          >
            Stock history<span className="sr-only"> of {t.name}</span>
          </a>
        </span>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Manage Products" total={tools.total} noun="products">
        Everything in the catalogue, {lowFirst ? 'the products below their low-stock level first' : 'newest first'}.
      </ScreenHeader>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <ViewSelect
          id="products-sort"
          label="Sort by"
          value={lowFirst ? 'low-stock' : ''}
          onChange={(sort) => setView({ sort })}
          options={[
            ['', 'Newest'],
            ['low-stock', 'Low stock first'],
          ]}
        />
      </div>
      <Loaded
        data={tools.rows as AdminTool[] | undefined}
        error={tools.error}
        onRetry={tools.reload}
        label="Loading products…"
      >
        {(rows) => (
          <>
            <DataTable
              caption="Products"
              columns={columns}
              rows={rows}
              busy={tools.loading}
              empty={
                <>
                  The catalogue is empty.{' '}
                  <AppLink href="/dashboard/addproduct" className="font-semibold text-amber-dark">
                    Add a product
                  </AppLink>
                </>
              }
            />
            <Pager label="Product pages" pager={tools.pager} />
          </>
        )}
      </Loaded>
      {dialog}
    </>
  );
}
