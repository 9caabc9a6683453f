// Stock history (admin, issue 26): where a product's units went, from its stock ledger (GET
// /tools/{id}/ledger), newest first, a page at a time: when, the change, why, the order, who, and the
// units for sale after it.
import type { MouseEvent } from 'react';
import { api, enc } from '../../client/infra/api';
import { navigate } from '../../client/state/router';
import type { StockMovement, StockReason } from '../../lib/entities';
import { Badge, type BadgeTone } from '../ui/Badge';
import { EmailText, type Column } from '../ui/DataTable';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { usePagedList } from '../ui/usePagedList';
import { useResource } from '../ui/useResource';
import { When } from '../ui/When';
import { dashboardPaths } from './paths';

const MANAGE = dashboardPaths.manageProducts.path;
const count = (n: number) => n.toLocaleString('en-US');

const REASON_TONES: Record<StockReason, BadgeTone> = {
  sale: 'neutral',
  'hold released': 'neutral',
  'refund restock': 'warning',
  'admin restock': 'success',
  import: 'success',
  correction: 'danger',
};

const go = (href: string) => (e: MouseEvent) => {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(href);
};

/** "+120" or "−50" (a real minus sign), said as "120 added" or "50 taken" to a screen reader. */
function Change({ delta }: { delta: number }) {
  const units = count(Math.abs(delta));
  return (
    <span className={`font-semibold tabular-nums ${delta < 0 ? 'text-danger' : 'text-success'}`}>
      <span aria-hidden="true">
        {delta < 0 ? '−' : '+'}
        {units}
      </span>
      <span className="sr-only">{delta < 0 ? `${units} taken` : `${units} added`}</span>
    </span>
  );
}

export default function StockHistory({ params }: { params: Record<string, string> }) {
  const id = params.id ?? '';
  const tool = useResource(api.tools.get, { params: { id } }, 'Could not load this product.');
  const ledger = usePagedList(
    api.tools.ledger,
    { params: { id } },
    'Could not load the stock history. Please try again.',
  );

  const columns: Column<StockMovement>[] = [
    { header: 'When', rowHeader: true, className: 'whitespace-nowrap', cell: (m) => <When at={m.at} withTime /> },
    { header: 'Change', className: 'sm:text-right', cell: (m) => <Change delta={m.delta} /> },
    {
      header: 'Reason',
      className: 'whitespace-nowrap',
      cell: (m) => <Badge tone={REASON_TONES[m.reason]}>{m.reason}</Badge>,
    },
    {
      header: 'Order',
      cell: (m) =>
        m.orderId ? (
          <a
            href={`/dashboard/orders/${enc(m.orderId)}`}
            className="font-mono text-xs text-amber-dark"
            onClick={go(`/dashboard/orders/${enc(m.orderId)}`)}
          >
            <span className="sr-only">Order </span>
            {m.orderId.slice(-8)}
          </a>
        ) : (
          <span className="text-steel-600">—</span>
        ),
    },
    {
      header: 'By',
      className: '[overflow-wrap:anywhere]',
      cell: (m) => (m.actor ? <EmailText email={m.actor} /> : <span className="text-steel-600">the shop</span>),
    },
    { header: 'Balance', className: 'sm:text-right tabular-nums', cell: (m) => count(m.balance) },
  ];

  const name = tool.data?.name;
  return (
    <>
      <ScreenHeader title={name ? `Stock history: ${name}` : 'Stock history'} total={ledger.total} noun="movements">
        Every change of the units for sale, newest first. The balance is the stock after each change
        {tool.data ? (
          <>
            ; now <strong>{count(tool.data.availableQuantity)}</strong>.
          </>
        ) : (
          '.'
        )}
      </ScreenHeader>
      <p className="mb-4 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <a href={MANAGE} className="font-semibold text-amber-dark" onClick={go(MANAGE)}>
          ← Manage products
        </a>
        <a
          href={`/dashboard/editproduct/${enc(id)}`}
          className="font-semibold text-amber-dark"
          onClick={go(`/dashboard/editproduct/${enc(id)}`)}
        >
          Edit this product
        </a>
      </p>
      <PagedTable
        list={ledger}
        loadingLabel="Loading the stock history…"
        pagerLabel="Stock history pages"
        caption={name ? `Stock movements of ${name}` : 'Stock movements'}
        columns={columns}
        rowKey={(m) => String(m.id)}
        empty="No stock movements yet."
      />
    </>
  );
}
