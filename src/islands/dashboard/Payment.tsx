// Pay for an order: buyer, product and 'quantity x price = total', a card form (Stripe or the sandbox),
// then PUT /booking/makepayment with the provider's intent id.
import { lazy, Suspense, useEffect, useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { messages } from '../../lib/messages';
import { formatCents, toCents } from '../../lib/money';
import { PageSpinner } from '../ui/Spinner';
import { OrderLinesList } from '../ui/OrderLines';
import { TotalsBreakdown, hasBreakdown } from '../ui/TotalsBreakdown';
import { useResource } from '../ui/useResource';

const SandboxCardForm = lazy(() => import('../payment/SandboxCardForm'));
const StripeCardForm = lazy(() => import('../payment/StripeCardForm'));

const LOAD_FAILED = 'Could not load this order.';

type Intent = Awaited<ReturnType<typeof api.payments.intent>>;

export default function Payment({ params }: { params: Record<string, string> }) {
  const found = useResource(api.orders.get, { params: { id: params.id } }, LOAD_FAILED);
  const [intent, setIntent] = useState<Intent | null>(null);
  const [intentError, setIntentError] = useState<string | null>(null);
  const [paidWith, setPaidWith] = useState<string | null>(null);

  // An unpaid order gets a payment intent. The spec's client sends its own total; the server
  // ignores it and charges the order's total.
  const unpaid = found.data?.payment === 'unpaid' ? found.data : null;
  const unpaidId = unpaid?._id;
  const unpaidTotal = unpaid?.totalCents;
  useEffect(() => {
    if (unpaidId === undefined) return;
    let current = true;
    api.payments.intent({ body: { orderId: unpaidId, price: unpaidTotal } }).then(
      (created) => current && setIntent(created),
      (e: unknown) => current && setIntentError(errorMessage(e, LOAD_FAILED)),
    );
    return () => {
      current = false;
    };
  }, [unpaidId, unpaidTotal]);

  const order = found.data;
  async function onPaid(transactionId: string) {
    await api.payments.pay({ params: { id: order!._id }, body: { appointment: order!._id, transactionId } });
    setPaidWith(transactionId);
  }

  const error = found.error ?? intentError;
  if (error)
    return (
      <p className="card p-6 text-danger" role="alert">
        {error}
      </p>
    );
  if (!order) return <PageSpinner label="Loading your order…" />;

  const unit = toCents(order.price);
  // Once paid, the prompt gives way to the paid state (and a cancelled order is not asked for money).
  const paid = paidWith !== null || order.payment === 'paid';
  const heading = paid
    ? `Paid: ${order.productName}`
    : order.payment === 'cancelled'
      ? `Cancelled: ${order.productName}`
      : `Please pay for ${order.productName}`;
  return (
    <section aria-labelledby="payment-heading" className="max-w-xl space-y-6">
      <div className="card p-6">
        <p className="text-sm text-steel-600">Hello, {order.userName}</p>
        <h1 id="payment-heading" className="mt-1 text-2xl font-black">
          {heading}
        </h1>
        {order.items.length > 1 ? (
          // Several lines: each 'quantity x price = line total', then the one payment's total.
          <>
            <div className="mt-3">
              <OrderLinesList order={order} />
            </div>
            <p className="mt-3 text-lg" data-testid="payment-total">
              Total = <strong>{formatCents(order.totalCents)}</strong>
            </p>
          </>
        ) : (
          <p className="mt-3 text-lg" data-testid="payment-total">
            {order.quantity} x {formatCents(unit)} = <strong>{formatCents(order.quantity * unit)}</strong>
          </p>
        )}
        {/* Delivery, VAT or a discount: what the payment charges, under the spec's line. */}
        {hasBreakdown(order) && (
          <TotalsBreakdown totals={order} className="mt-3 max-w-sm border-t border-steel-100 pt-3" />
        )}
      </div>
      {paid ? (
        <div className="card border-success p-6" role="status">
          <p className="text-lg font-bold text-success">{messages.paymentSuccess}</p>
          <p className="mt-2 text-sm">
            Your transaction id: <code className="break-all font-semibold">{paidWith ?? order.transactionId}</code>
          </p>
          <a href="/dashboard/myorders" className="btn btn-dark mt-4 no-underline">
            Back to My Orders
          </a>
        </div>
      ) : order.payment === 'cancelled' ? (
        <p className="card p-6 text-steel-700" role="status">
          {order.cancelReason ?? 'This order was cancelled.'}
          {order.refund && <strong className="mt-2 block">{messages.paymentRefunded}</strong>}
        </p>
      ) : !intent ? (
        <PageSpinner label="Preparing a secure payment…" />
      ) : (
        <div className="card p-6">
          <Suspense fallback={<PageSpinner label="Loading the card form…" />}>
            {intent.gateway === 'stripe' && intent.publishableKey ? (
              <StripeCardForm
                publishableKey={intent.publishableKey}
                clientSecret={intent.clientSecret}
                onPaid={onPaid}
              />
            ) : (
              <SandboxCardForm clientSecret={intent.clientSecret} onPaid={onPaid} />
            )}
          </Suspense>
        </div>
      )}
    </section>
  );
}
