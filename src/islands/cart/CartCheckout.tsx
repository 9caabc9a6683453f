// The cart's checkout (one order of every line, POST /orders, signed in), the quote request for the
// whole cart instead, and the confirmation once the order is placed.
import { useStore } from '@nanostores/react';
import type { FormEvent } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { clearCart, type CartLine } from '../../client/state/cart';
import { $user } from '../../client/state/session-store';
import type { Order } from '../../lib/entities';
import { formatCents } from '../../lib/money';
import { messages } from '../../lib/messages';
import { DeliveryFields, EMPTY_DELIVERY, deliveryChecks, deliveryErrors, deliveryJson } from '../ui/DeliveryFields';
import { OrderLinesList } from '../ui/OrderLines';
import { QuoteRequest } from '../ui/QuoteRequest';
import { SubmitButton } from '../ui/SubmitButton';
import { TotalsBreakdown, hasBreakdown } from '../ui/TotalsBreakdown';
import { useForm } from '../ui/useForm';

const LOGIN = '/login?from=/cart';

export function Checkout({
  lines,
  discountCode,
  blocked,
  onPlaced,
  onRefused,
}: {
  lines: CartLine[];
  /** The code the buyer applied (the server checks it again as it places the order). */
  discountCode: string | null;
  blocked: boolean;
  onPlaced: (order: Order) => void;
  onRefused: (errors: Record<string, string>) => void;
}) {
  const user = useStore($user);
  // The phone is checked when it loses focus; fields stay editable while the order is sent.
  const { values, errors, setErrors, busy, setBusy, bind } = useForm(EMPTY_DELIVERY, {
    checks: deliveryChecks,
    disableWhileBusy: false,
  });

  if (!user) {
    return (
      <p className="card p-4">
        <a href={LOGIN} className="font-semibold underline">
          Log in
        </a>{' '}
        to check out. Your cart stays here.
      </p>
    );
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = deliveryErrors(values);
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    const items = lines.map((l) => ({ toolId: l.toolId, quantity: l.quantity }));
    try {
      const result = await api.orders.placeCart({
        body: { items, ...deliveryJson(values), ...(discountCode ? { discountCode } : {}) },
      });
      const order = await api.orders.get({ params: { id: result.insertedId } });
      clearCart();
      onPlaced(order);
    } catch (error) {
      setErrors({ form: errorMessage(error) });
      // items.{i}.quantity / items.{i}.toolId: the line the server could not meet.
      const lineErrors: Record<string, string> = {};
      for (const [field, message] of Object.entries(serverFieldErrors(error) ?? {})) {
        const index = /^items\.(\d+)\./.exec(field)?.[1];
        if (index !== undefined && items[Number(index)]) lineErrors[items[Number(index)].toolId] = message;
      }
      onRefused(lineErrors);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="card space-y-4 p-6" aria-labelledby="checkout-heading">
      <h2 id="checkout-heading" className="text-xl font-black">
        Check out
      </h2>
      <DeliveryFields user={user} bind={bind} />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <SubmitButton busy={busy} busyLabel="Placing your order…" disabled={blocked} className="btn-primary w-full">
        Place order
      </SubmitButton>
    </form>
  );
}

/**
 * "Ask for a quote" for the whole cart, whatever its quantities: open at once when a line is above its
 * tool's quote threshold (`needed`), else behind a disclosure.
 */
export function CartQuote({ lines, problem, needed }: { lines: CartLine[]; problem: string | null; needed: boolean }) {
  const user = useStore($user);
  const items = lines.map((l) => ({ toolId: l.toolId, quantity: l.quantity }));
  return (
    <details className="card group p-6" open={needed || undefined}>
      <summary className="cursor-pointer text-lg font-black">Ask for a quote instead</summary>
      <div className="mt-4">
        {user ? (
          <QuoteRequest
            items={items}
            problem={problem}
            intro="Buying in bulk or on a schedule? Send the cart as it is and we answer with a price for every line."
          />
        ) : (
          <p>
            <a href={LOGIN} className="font-semibold underline">
              Log in
            </a>{' '}
            to ask for a quote. Your cart stays here.
          </p>
        )}
        {problem && <p className="mt-2 text-sm text-steel-600">Fix the lines marked above first.</p>}
      </div>
    </details>
  );
}

/** The confirmation: the order's lines as the server placed them, and the way to pay. */
export function Placed({ order }: { order: Order }) {
  return (
    <section className="card space-y-4 p-6" aria-labelledby="placed-heading">
      <h2 id="placed-heading" className="text-xl font-black text-success" role="status">
        {messages.orderPlaced}
      </h2>
      <OrderLinesList order={order} />
      {hasBreakdown(order) && <TotalsBreakdown totals={order} className="max-w-sm" />}
      <p className="text-lg">
        Total: <strong data-testid="placed-total">{formatCents(order.totalCents)}</strong>
      </p>
      <div className="flex flex-wrap gap-3">
        <a href={`/dashboard/payment/${order._id}`} className="btn btn-primary no-underline">
          Pay now
        </a>
        <a href="/dashboard/myorders" className="btn btn-outline no-underline">
          My Orders
        </a>
      </div>
    </section>
  );
}
