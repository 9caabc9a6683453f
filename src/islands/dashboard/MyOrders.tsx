// My orders (spec point 2): the total in the heading; product, quantity, payment status and action per
// order. Unpaid: the time left to pay, 'Make payment' and Delete; paid: the transaction id; cancelled:
// why, and a refund when a payment landed after the cancellation.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import type { Order } from '../../lib/entities';
import { $user } from '../../client/state/session-store';
import { toast } from '../../client/infra/toast';
import { messages } from '../../lib/messages';
import { formatCents, toCents } from '../../lib/money';
import { AppLink } from '../ui/AppLink';
import { useConfirm } from '../ui/ConfirmDialog';
import type { Column } from '../ui/DataTable';
import { PagedTable } from '../ui/PagedTable';
import { OrderProduct } from '../ui/OrderLines';
import { TotalsBreakdown, hasBreakdown } from '../ui/TotalsBreakdown';
import { usePagedList } from '../ui/usePagedList';
import { When } from '../ui/When';

export default function MyOrders() {
  const email = useStore($user)?.email ?? '';
  // A page at a time (a buyer may have thousands), with the total from the server.
  const orders = usePagedList(
    api.orders.ofUser,
    email ? { params: { email: email.toLowerCase() } } : null,
    'Could not load your orders.',
  );
  const [deleting, setDeleting] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();

  async function remove(order: Order) {
    const ok = await confirm({
      text: (
        <>
          {messages.confirmIrreversible}
          <br />
          Delete your order for {order.quantity} × {order.productName}?
        </>
      ),
      confirmLabel: 'Yes, delete it',
    });
    if (!ok) return;
    setDeleting(order._id);
    try {
      await api.orders.remove({ params: { id: order._id } });
      toast.success('Order deleted');
      orders.updateRows((list) => list.filter((o) => o._id !== order._id));
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setDeleting(null);
    }
  }

  const columns: Column<Order>[] = [
    {
      header: '#',
      cell: (o) => orders.pager.page * orders.pager.size + (orders.rows?.indexOf(o) ?? 0) + 1,
      className: 'tabular-nums',
    },
    { header: 'Product name', rowHeader: true, cell: (o) => <OrderProduct order={o} withPrices /> },
    // A cart's lines each have their own quantity (in the product cell): their sum would add different tools.
    // The unit price is the one placed (a price break shows).
    {
      header: 'Quantity',
      cell: (o) =>
        o.items.length > 1 ? (
          <span className="text-steel-600">By line</span>
        ) : (
          <span className="block">
            {o.quantity}
            {o.items[0] && (
              <span className="block text-xs whitespace-nowrap text-steel-600">
                at {formatCents(toCents(o.items[0].price))} each
              </span>
            )}
          </span>
        ),
      className: 'tabular-nums',
    },
    {
      header: 'Total',
      className: 'tabular-nums font-semibold whitespace-nowrap',
      // Delivery, VAT or a discount: the breakdown one click away (older orders are their plain total).
      cell: (o) =>
        hasBreakdown(o) ? (
          <details className="block font-normal">
            <summary className="cursor-pointer font-semibold">{formatCents(o.totalCents)}</summary>
            <TotalsBreakdown totals={o} className="mt-1 min-w-44 text-xs" />
          </details>
        ) : (
          formatCents(o.totalCents)
        ),
    },
    {
      header: 'Date',
      className: 'whitespace-nowrap',
      cell: (o) => <When at={o.createdAt} />,
    },
    { header: 'Payment', cell: (o) => <PaymentStatus order={o} /> },
    {
      header: 'Action',
      cell: (order) => (
        <span className="flex flex-col items-end gap-1 sm:items-start">
          <AppLink href={`/dashboard/orders/${order._id}`} className="text-xs font-semibold text-amber-dark">
            Order details<span className="sr-only"> of {order.productName}</span>
          </AppLink>
          {order.payment === 'unpaid' && (
            <span className="flex flex-wrap justify-end gap-2 sm:justify-start">
              <AppLink href={`/dashboard/payment/${order._id}`} className="btn btn-primary btn-sm no-underline">
                Make payment
              </AppLink>
              <button
                type="button"
                className="btn btn-danger btn-sm"
                disabled={deleting === order._id}
                onClick={() => remove(order)}
              >
                {deleting === order._id ? 'Deleting…' : 'Delete'}
              </button>
            </span>
          )}
          {order.payment === 'paid' && (
            // The id on a line of its own, never broken inside (a provider id is one word to copy).
            <span className="text-xs text-steel-600">
              Transaction id: <code className="block whitespace-nowrap text-[11px]">{order.transactionId}</code>
            </span>
          )}
          {order.payment === 'cancelled' && (
            <span className="text-xs text-steel-600">
              {order.cancelReason}
              {order.refund && (
                <strong className="mt-1 block font-semibold text-steel-700">
                  Your payment of {formatCents(order.refund.amountCents)} was refunded on{' '}
                  {new Date(order.refund.refundedAt).toLocaleDateString()}.
                </strong>
              )}
            </span>
          )}
        </span>
      ),
    },
  ];

  return (
    <section aria-labelledby="orders-heading">
      <h1 id="orders-heading" className="mb-4 text-2xl font-black">
        My Orders{orders.total !== undefined && `: ${orders.total}`}
      </h1>
      <PagedTable
        list={orders}
        loadingLabel="Loading your orders…"
        pagerLabel="Order pages"
        caption="My orders"
        columns={columns}
        empty={
          <>
            You have no orders yet.{' '}
            <a href="/#tools" className="font-semibold text-amber-dark">
              Browse our tools
            </a>
          </>
        }
      />
      {dialog}
    </section>
  );
}

function PaymentStatus({ order }: { order: Order }) {
  if (order.payment === 'unpaid') {
    return (
      <span className="flex flex-wrap items-center gap-1">
        <span className="badge bg-amber/20 text-amber-dark">Unpaid</span>
        <TimeLeftToPay expiresAt={order.expiresAt} />
      </span>
    );
  }
  if (order.payment === 'cancelled') {
    return (
      <span className="flex flex-wrap gap-1">
        <span className="badge bg-steel-200 text-steel-700">Cancelled</span>
        {order.refund && <span className="badge bg-steel-200 text-steel-700">Refunded</span>}
      </span>
    );
  }
  return (
    <span className="flex flex-wrap gap-1">
      <span className="badge bg-green-100 text-success">Paid</span>
      {order.shippingStatus === 'shipped' && <span className="badge bg-ink text-white">Shipped</span>}
      {order.shippingStatus === 'delivered' && <span className="badge bg-ink text-white">Delivered</span>}
      {order.refundedCents > 0 && (
        <span className="badge bg-steel-200 text-steel-700">
          {order.refundedCents >= order.totalCents ? 'Refunded' : 'Partly refunded'}
        </span>
      )}
    </span>
  );
}

/** Minutes until an unpaid order's hold ends, recounted every minute (the server cancels it then). */
function TimeLeftToPay({ expiresAt }: { expiresAt: string }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const minutes = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 60_000));
  return (
    <time dateTime={expiresAt} className="text-xs text-steel-600" title={new Date(expiresAt).toLocaleString()}>
      {messages.holdTimeLeft(minutes)}
    </time>
  );
}
