// Manage all orders (admin): total count; email, phone, price, product name, quantity and payment,
// each under its own header (the spec's phone-under-'Price' is a bug we fix), with what the admin needs
// to ship: the date, the total and where it goes. Search, filters, date range and sort live in the
// address (a view can be shared); paged on the server. Paid orders read Pending with a Shipped button
// that opens the ship form (carrier, tracking number; PUT /booking/ship/{id}); each order links to its page.
import { useState } from 'react';
import { api } from '../../client/infra/api';
import type { Order } from '../../lib/entities';
import { toast } from '../../client/infra/toast';
import { formatCents, toCents } from '../../lib/money';
import { DialogButton } from '../ui/SubmitButton';
import { AppLink } from '../ui/AppLink';
import { Badge } from '../ui/Badge';
import { ShipDialog } from '../ui/ShipDialog';
import { EmailText, type Column } from '../ui/DataTable';
import { OrderProduct } from '../ui/OrderLines';
import { breakdownText, hasBreakdown } from '../ui/TotalsBreakdown';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { SearchForm } from '../ui/SearchForm';
import { PlacedRange } from '../ui/PlacedRange';
import { ViewSelect } from '../ui/ViewSelect';
import { usePagedList } from '../ui/usePagedList';
import { present, useUrlQuery } from '../ui/useUrlQuery';
import { When } from '../ui/When';

const VIEW_FIELDS = ['q', 'payment', 'shipping', 'from', 'to', 'sort'] as const;
type OrderQuery = NonNullable<Parameters<typeof api.orders.list>[0]>['query'];

function PaymentStatus({ order }: { order: Order }) {
  if (order.payment === 'unpaid') return <Badge tone="warning">Unpaid</Badge>;
  if (order.payment === 'cancelled') return <Badge tone="danger">Cancelled</Badge>;
  if (order.refundedCents >= order.totalCents) return <Badge tone="danger">Refunded</Badge>;
  if (order.shippingStatus === 'delivered') return <Badge tone="success">Delivered</Badge>;
  return order.shippingStatus === 'shipped' ? (
    <Badge tone="success">Shipped</Badge>
  ) : (
    <Badge tone="dark">Pending</Badge>
  );
}

export default function ManageAllOrders(_props: { params: Record<string, string> }) {
  const [view, setView] = useUrlQuery(VIEW_FIELDS);
  const filtered = VIEW_FIELDS.some((f) => f !== 'sort' && view[f]);
  // A page at a time: a store may hold millions of orders; the count comes from the server, which
  // checks the address's values too (a bad one is a 400 naming it).
  const orders = usePagedList(
    api.orders.list,
    { query: present(view) as OrderQuery },
    'Could not load the orders. Please try again.',
  );
  // The order whose ship form is open.
  const [shipping, setShipping] = useState<Order | null>(null);

  function shipped(order: Order) {
    setShipping(null);
    orders.updateRows((list) => list.map((o) => (o._id === order._id ? order : o)));
    toast.success(`${order.productName} for ${order.email} is marked shipped`);
  }

  const columns: Column<Order>[] = [
    {
      header: 'Email',
      rowHeader: true,
      // One box: a stacked card's cell lays its children out in a row beside the label.
      cell: (o) => (
        <span className="block min-w-28 @max-2xl:min-w-0">
          <EmailText email={o.email} />
          <span className="block text-xs font-normal text-steel-600">
            Placed <When at={o.createdAt} />
          </span>
          <AppLink href={`/dashboard/orders/${o._id}`} className="mt-0.5 block text-xs font-semibold text-amber-dark">
            Order details
            <span className="sr-only">
              {' '}
              of {o.productName} for {o.email}
            </span>
          </AppLink>
        </span>
      ),
    },
    {
      header: 'Phone',
      className: 'whitespace-nowrap tabular-nums',
      cell: (o) =>
        o.phone ? (
          <a href={`tel:${o.phone}`} className="text-ink">
            {o.phone}
          </a>
        ) : (
          <span className="text-steel-600">None</span>
        ),
    },
    {
      header: 'Price',
      className: 'sm:text-right tabular-nums whitespace-nowrap',
      cell: (o) => formatCents(toCents(o.price)),
    },
    { header: 'Product name', cell: (o) => <OrderProduct order={o} /> },
    {
      header: 'Quantity',
      className: 'sm:text-right tabular-nums',
      cell: (o) =>
        o.items.length > 1 ? <span className="text-steel-600">By line</span> : o.quantity.toLocaleString('en-US'),
    },
    {
      header: 'Total',
      // Amounts never break; the delivery line may.
      className: 'sm:text-right tabular-nums font-semibold whitespace-nowrap',
      // The breakdown in the title; the delivery charged on a second line.
      cell: (o) =>
        hasBreakdown(o) ? (
          <span className="block" title={breakdownText(o)}>
            {formatCents(o.totalCents)}
            {o.deliveryCents > 0 && (
              <span className="block text-xs font-normal whitespace-normal text-steel-600">
                incl. {formatCents(o.deliveryCents)} delivery
              </span>
            )}
          </span>
        ) : (
          formatCents(o.totalCents)
        ),
    },
    {
      header: 'Payment',
      cell: (o) => (
        <span
          className="inline-flex flex-col items-end gap-1 whitespace-nowrap sm:items-start"
          title={o.payment === 'cancelled' ? (o.cancelReason ?? undefined) : undefined}
        >
          <PaymentStatus order={o} />
          {o.refundedCents > 0 && o.refundedCents < o.totalCents && <Badge tone="warning">Partly refunded</Badge>}
          {o.payment === 'paid' && o.shippingStatus === 'pending' && (
            <DialogButton className="btn-primary btn-sm" onClick={() => setShipping(o)}>
              Shipped
              <span className="sr-only">
                {' '}
                – mark {o.productName} for {o.email} as shipped
              </span>
            </DialogButton>
          )}
        </span>
      ),
    },
    {
      header: 'Ship to',
      cell: (o) => (
        <span className="block min-w-20 text-xs @max-2xl:max-w-[65%]">
          <span className="block font-semibold">{o.userName}</span>
          <span className="text-steel-600">{o.address}</span>
        </span>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Manage All Orders" total={orders.total} noun={filtered ? 'matching orders' : 'orders'}>
        Paid orders wait as Pending until you mark them shipped.
      </ScreenHeader>
      <div className="card mb-4 grid gap-3 p-4 sm:grid-cols-2 xl:grid-cols-3" role="search" aria-label="Find orders">
        <SearchForm
          placeholder="Email, name or order id"
          query={view.q}
          onSearch={(q) => setView({ q })}
          className="sm:col-span-2 xl:col-span-3"
        />
        <ViewSelect
          id="orders-payment"
          label="Payment"
          value={view.payment}
          onChange={(payment) => setView({ payment })}
          options={[
            ['', 'Any payment'],
            ['unpaid', 'Unpaid'],
            ['paid', 'Paid'],
            ['cancelled', 'Cancelled'],
          ]}
        />
        <ViewSelect
          id="orders-shipping"
          label="Shipping"
          value={view.shipping}
          onChange={(shipping) => setView({ shipping })}
          options={[
            ['', 'Any shipping'],
            ['pending', 'Pending (paid, not shipped)'],
            ['shipped', 'Shipped'],
          ]}
        />
        <ViewSelect
          id="orders-sort-by"
          label="Sort by"
          value={view.sort}
          onChange={(sort) => setView({ sort })}
          options={[
            ['', 'Newest first'],
            ['oldest', 'Oldest first'],
            ['total-desc', 'Total: high to low'],
            ['total-asc', 'Total: low to high'],
          ]}
        />
        <PlacedRange idPrefix="orders" from={view.from} to={view.to} onChange={setView} />
        <div className="flex items-end">
          <button
            type="button"
            className="btn btn-outline w-full"
            disabled={!filtered && !view.sort}
            onClick={() => setView({ q: '', payment: '', shipping: '', from: '', to: '', sort: '' })}
          >
            Clear search and filters
          </button>
        </div>
      </div>
      <PagedTable
        list={orders}
        loadingLabel="Loading orders…"
        pagerLabel="Order pages"
        caption="All orders"
        columns={columns}
        dense
        empty={filtered ? 'No orders match this search and these filters.' : 'No orders yet.'}
      />
      {shipping && <ShipDialog order={shipping} onShipped={shipped} onClose={() => setShipping(null)} />}
    </>
  );
}
