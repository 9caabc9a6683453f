import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { api, enc, errorMessage } from '../../client/api';
import type { Order } from '../../client/orders';
import { navigate } from '../../client/router';
import { $user } from '../../client/session-store';
import { toast } from '../../client/toast';
import { messages } from '../../lib/messages';
import { useConfirm } from '../ui/ConfirmDialog';
import { PageSpinner } from '../ui/Spinner';

export default function MyOrders() {
  const email = useStore($user)?.email ?? '';
  const [orders, setOrders] = useState<Order[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();

  const load = useCallback(async () => {
    try {
      setOrders(await api.get<Order[]>(`booking/email/${enc(email.toLowerCase())}`));
      setError(null);
    } catch (e) {
      setError(errorMessage(e, 'Could not load your orders.'));
    }
  }, [email]);
  useEffect(() => void load(), [load]);

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
      await api.delete(`booking/dlt/${enc(order._id)}`);
      toast.success('Order deleted');
      await load();
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setDeleting(null);
    }
  }

  if (error) return <p className="card p-6 text-danger" role="alert">{error}</p>;
  if (!orders) return <PageSpinner label="Loading your orders…" />;

  return (
    <section aria-labelledby="orders-heading">
      <h1 id="orders-heading" className="mb-4 text-2xl font-black">
        My Orders: {orders.length}
      </h1>
      {orders.length === 0 ? (
        <p className="card p-8 text-center text-steel-600">
          You have no orders yet.{' '}
          <a href="/#tools" className="font-semibold text-amber-dark">
            Browse our tools
          </a>
        </p>
      ) : (
        <div className="card overflow-x-auto">
          <table className="table-basic min-w-[36rem]">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Product name</th>
                <th scope="col">Quantity</th>
                <th scope="col">Payment</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order, i) => (
                <tr key={order._id}>
                  <td>{i + 1}</td>
                  <td className="font-medium">{order.productName}</td>
                  <td>{order.quantity}</td>
                  <td>
                    <PaymentStatus order={order} />
                  </td>
                  <td>
                    {order.payment === 'unpaid' && (
                      <div className="flex flex-wrap gap-2">
                        <a
                          href={`/dashboard/payment/${order._id}`}
                          className="btn btn-primary btn-sm no-underline"
                          onClick={(e) => {
                            e.preventDefault();
                            navigate(`/dashboard/payment/${order._id}`);
                          }}
                        >
                          Make payment
                        </a>
                        <button type="button" className="btn btn-danger btn-sm" disabled={deleting === order._id} onClick={() => remove(order)}>
                          {deleting === order._id ? 'Deleting…' : 'Delete'}
                        </button>
                      </div>
                    )}
                    {order.payment === 'paid' && (
                      <span className="text-xs text-steel-600">
                        Transaction id: <code className="break-all">{order.transactionId}</code>
                      </span>
                    )}
                    {order.payment === 'cancelled' && <span className="text-xs text-steel-600">{order.cancelReason}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {dialog}
    </section>
  );
}

function PaymentStatus({ order }: { order: Order }) {
  if (order.payment === 'unpaid') return <span className="badge bg-amber/20 text-amber-dark">Unpaid</span>;
  if (order.payment === 'cancelled') return <span className="badge bg-steel-200 text-steel-700">Cancelled</span>;
  return (
    <span className="flex flex-wrap gap-1">
      <span className="badge bg-green-100 text-success">Paid</span>
      {order.shippingStatus === 'shipped' && <span className="badge bg-ink text-white">Shipped</span>}
    </span>
  );
}
