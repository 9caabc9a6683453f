// Manage all orders (admin): total count; email, phone, price, product name, quantity and payment,
// each under its own header (the spec's phone-under-'Price' is a bug we fix). Paid orders read
// Pending with a Shipped button that is saved (PUT /booking/ship/{id}), not only flipped locally.
import { useState } from 'react';
import { api, enc, errorMessage } from '../../client/api';
import type { Order } from '../../lib/entities';
import { toast } from '../../client/toast';
import { formatCents, toCents } from '../../lib/money';
import { Badge } from '../ui/Badge';
import { DataTable, EmailText, type Column } from '../ui/DataTable';
import { OrderProduct } from '../ui/OrderLines';
import { ScreenHeader } from '../ui/ScreenHeader';
import { Loaded } from '../ui/States';
import { Pager } from '../ui/Pager';
import { usePagedList } from '../ui/usePagedList';

function PaymentStatus({ order }: { order: Order }) {
  if (order.payment === 'unpaid') return <Badge tone="warning">Unpaid</Badge>;
  if (order.payment === 'cancelled') return <Badge tone="danger">Cancelled</Badge>;
  return order.shippingStatus === 'shipped' ? <Badge tone="success">Shipped</Badge> : <Badge tone="dark">Pending</Badge>;
}

export default function ManageAllOrders(_props: { params: Record<string, string> }) {
  // A page at a time: a store may hold millions of orders; the total comes from the server.
  const orders = usePagedList<Order>('booking', 'Could not load the orders. Please try again.');
  const [shipping, setShipping] = useState<Record<string, boolean>>({});

  async function ship(order: Order) {
    setShipping((s) => ({ ...s, [order._id]: true }));
    try {
      await api.put(`booking/ship/${enc(order._id)}`);
      orders.updateRows((list) => list.map((o) => (o._id === order._id ? { ...o, shippingStatus: 'shipped' } : o)));
      toast.success(`${order.productName} for ${order.email} is marked shipped`);
    } catch (error) {
      toast.error(errorMessage(error, 'The order could not be marked shipped. Please try again.'));
    } finally {
      setShipping((s) => ({ ...s, [order._id]: false }));
    }
  }

  const columns: Column<Order>[] = [
    { header: 'Email', rowHeader: true, cell: (o) => <EmailText email={o.email} /> },
    { header: 'Phone', className: 'whitespace-nowrap tabular-nums', cell: (o) => (o.phone ? <a href={`tel:${o.phone}`} className="text-ink">{o.phone}</a> : <span className="text-steel-600">None</span>) },
    { header: 'Price', className: 'sm:text-right tabular-nums', cell: (o) => formatCents(toCents(o.price)) },
    { header: 'Product name', cell: (o) => <OrderProduct order={o} /> },
    { header: 'Quantity', className: 'sm:text-right tabular-nums', cell: (o) => o.quantity.toLocaleString('en-US') },
    {
      header: 'Payment',
      cell: (o) => (
        <span className="inline-flex items-center gap-2 whitespace-nowrap" title={o.payment === 'cancelled' ? (o.cancelReason ?? undefined) : undefined}>
          <PaymentStatus order={o} />
          {o.payment === 'paid' && o.shippingStatus === 'pending' && (
            <button type="button" className="btn btn-primary btn-sm" disabled={shipping[o._id]} aria-busy={shipping[o._id] || undefined} onClick={() => ship(o)}>
              {shipping[o._id] ? 'Saving…' : 'Shipped'}
              <span className="sr-only">
                {' '}
                – mark {o.productName} for {o.email} as shipped
              </span>
            </button>
          )}
        </span>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Manage All Orders" total={orders.total} noun="orders">
        Paid orders wait as Pending until you mark them shipped.
      </ScreenHeader>
      <Loaded data={orders.rows} error={orders.error} onRetry={orders.reload} label="Loading orders…">
        {(rows) => (
          <>
            <DataTable caption="All orders" columns={columns} rows={rows} rowKey={(o) => o._id} busy={orders.loading} empty="No orders yet." />
            <Pager label="Order pages" pager={orders.pager} />
          </>
        )}
      </Loaded>
    </>
  );
}
