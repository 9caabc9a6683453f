// An order's page (issue 25), for its buyer and for admins: the lines and total, where it ships, its
// timeline (placed, paid, shipped, delivered, cancelled), the carrier's tracking, and the invoice to
// download. Admins also ship it (carrier and tracking number) and mark it delivered from here.
import { useStore } from '@nanostores/react';
import { useState, type ReactNode } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { saveFile } from '../../client/infra/save-file';
import { $isAdmin } from '../../client/state/session-store';
import { toast } from '../../client/infra/toast';
import type { Order, OrderDetail as Detail, OrderStep } from '../../lib/entities';
import { formatCents } from '../../lib/money';
import { AppLink } from '../ui/AppLink';
import { Badge } from '../ui/Badge';
import { OrderLinesList } from '../ui/OrderLines';
import { RefundDialog } from '../ui/RefundDialog';
import { ShipDialog } from '../ui/ShipDialog';
import { Loaded } from '../ui/States';
import { ActionButton, DialogButton } from '../ui/SubmitButton';
import { TotalsBreakdown, hasBreakdown } from '../ui/TotalsBreakdown';
import { useResource } from '../ui/useResource';
import { When } from '../ui/When';

const STEP_LABEL: Record<OrderStep['status'], string> = {
  placed: 'Order placed',
  paid: 'Payment received',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

function StatusBadge({ order }: { order: Order }) {
  if (order.payment === 'unpaid') return <Badge tone="warning">Unpaid</Badge>;
  if (order.payment === 'cancelled') return <Badge tone="danger">Cancelled</Badge>;
  if (order.refundedCents >= order.totalCents) return <Badge tone="danger">Refunded</Badge>;
  if (order.refundedCents > 0) return <Badge tone="warning">Partly refunded</Badge>;
  if (order.shippingStatus === 'delivered') return <Badge tone="success">Delivered</Badge>;
  if (order.shippingStatus === 'shipped') return <Badge tone="success">Shipped</Badge>;
  return <Badge tone="dark">Paid · Pending</Badge>;
}

export default function OrderDetail({ params }: { params: Record<string, string> }) {
  const isAdmin = useStore($isAdmin) === true;
  const order = useResource(
    api.orders.get,
    { params: { id: params.id ?? '' } },
    'Could not load this order. Please try again.',
  );
  const [shipping, setShipping] = useState(false);
  const [refunding, setRefunding] = useState(false);
  const [busy, setBusy] = useState<'deliver' | 'invoice' | null>(null);

  async function deliver(o: Detail) {
    setBusy('deliver');
    try {
      await api.orders.deliver({ params: { id: o._id } });
      toast.success('The order is marked delivered');
      order.reload();
    } catch (error) {
      toast.error(errorMessage(error, 'The order could not be marked delivered. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  async function downloadInvoice(o: Detail, number: string) {
    setBusy('invoice');
    try {
      const { blob, name } = await api.orders.invoice({ params: { id: o._id } }, { fileName: `${number}.pdf` });
      saveFile(blob, name);
    } catch (error) {
      toast.error(errorMessage(error, 'The invoice could not be downloaded. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Loaded data={order.data} error={order.error} onRetry={order.reload} label="Loading the order…">
      {(o) => {
        const invoice = o.invoices.find((d) => d.kind === 'invoice');
        return (
          <article aria-labelledby="order-heading" className="grid gap-6">
            <header className="flex flex-wrap items-center justify-between gap-3 border-b border-steel-200 pb-4">
              <div>
                <h1 id="order-heading" className="text-2xl font-black tracking-tight sm:text-3xl">
                  Order {o._id.slice(-8).toUpperCase()}
                </h1>
                <p className="mt-1 text-sm text-steel-600">
                  Placed <When at={o.createdAt} withTime />
                </p>
              </div>
              <StatusBadge order={o} />
            </header>

            <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
              <Card id="lines" title="What was ordered">
                <OrderLinesList order={o} />
                {hasBreakdown(o) ? (
                  <TotalsBreakdown totals={o} className="mt-3 border-t border-steel-200 pt-3" />
                ) : (
                  <p className="mt-3 flex justify-between border-t border-steel-200 pt-3 font-bold">
                    <span>Total</span>
                    <span className="tabular-nums">{formatCents(o.totalCents)}</span>
                  </p>
                )}
                {o.refundedCents > 0 && (
                  <p className="flex justify-between text-sm text-danger">
                    <span>Refunded</span>
                    <span className="tabular-nums">−{formatCents(o.refundedCents)}</span>
                  </p>
                )}
                <div className="mt-4 flex flex-wrap gap-2">
                  {o.payment === 'unpaid' && !isAdmin && (
                    <AppLink href={`/dashboard/payment/${o._id}`} className="btn btn-primary no-underline">
                      Make payment
                    </AppLink>
                  )}
                  {invoice && (
                    <ActionButton
                      className="btn-outline"
                      busy={busy === 'invoice'}
                      busyLabel="Downloading…"
                      onClick={() => downloadInvoice(o, invoice.number)}
                    >
                      Download invoice {invoice.number}
                    </ActionButton>
                  )}
                </div>
              </Card>

              <Card id="ship" title="Shipping">
                <p className="font-semibold">{o.userName}</p>
                <p className="whitespace-pre-line text-sm text-steel-700">{o.address}</p>
                {o.phone && <p className="text-sm text-steel-700">{o.phone}</p>}
                {o.shipment && (o.shipment.carrier || o.shipment.trackingNumber) && (
                  <p className="mt-3 text-sm">
                    {o.shipment.carrier}, tracking number{' '}
                    <strong className="inline-block whitespace-nowrap">{o.shipment.trackingNumber}</strong>
                    {o.shipment.trackingUrl && (
                      <a
                        href={o.shipment.trackingUrl}
                        className="mt-1 block font-semibold text-amber-dark"
                        target="_blank"
                        rel="noopener noreferrer"
                      >
                        Track your parcel<span className="sr-only"> (opens the carrier's site)</span>
                      </a>
                    )}
                  </p>
                )}
                {isAdmin && o.payment === 'paid' && (
                  <div className="mt-4 flex flex-wrap gap-2">
                    {o.shippingStatus === 'pending' && (
                      <DialogButton className="btn-primary" onClick={() => setShipping(true)}>
                        Ship this order
                      </DialogButton>
                    )}
                    {o.refundedCents < o.totalCents && (
                      <DialogButton className="btn-outline" onClick={() => setRefunding(true)}>
                        Refund
                      </DialogButton>
                    )}
                    {o.shippingStatus === 'shipped' && (
                      <ActionButton busy={busy === 'deliver'} busyLabel="Saving…" onClick={() => deliver(o)}>
                        Mark delivered
                      </ActionButton>
                    )}
                  </div>
                )}
              </Card>
            </div>

            <Card id="history" title="Timeline" gap="mb-3">
              <ol className="grid gap-3 border-l-2 border-amber pl-4">
                {o.history.map((step, i) => (
                  <li key={i} data-testid="order-step">
                    <p className="font-semibold">{STEP_LABEL[step.status] ?? step.status}</p>
                    <p className="text-sm text-steel-600">
                      <When at={step.at} withTime />
                      {step.by && <span className="break-all"> · by {step.by}</span>}
                    </p>
                  </li>
                ))}
              </ol>
            </Card>
            {refunding && (
              <RefundDialog
                order={o}
                onClose={() => setRefunding(false)}
                onRefunded={() => {
                  setRefunding(false);
                  toast.success('The refund went through; the buyer is emailed a credit note');
                  order.reload();
                }}
              />
            )}
            {shipping && (
              <ShipDialog
                order={o}
                onClose={() => setShipping(false)}
                onShipped={() => {
                  setShipping(false);
                  toast.success(`${o.productName} for ${o.email} is marked shipped`);
                  order.reload();
                }}
              />
            )}
          </article>
        );
      }}
    </Loaded>
  );
}

/** One part of the order's page: a card named by its heading. */
function Card({ id, title, gap = 'mb-2', children }: { id: string; title: string; gap?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="card p-4 sm:p-6">
      <h2 id={`${id}-heading`} className={`${gap} text-lg font-bold`}>
        {title}
      </h2>
      {children}
    </section>
  );
}
