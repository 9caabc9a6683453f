// The purchase form on /tools/{id}: login required; the limits come from the live tool. One quantity
// for both of its actions: Purchase places the order now (address and phone), Add to cart keeps the
// units for a later checkout of several tools (the spec's rules, counting what the cart holds). The
// unit price follows the tool's price breaks as the quantity changes; above its quote threshold the
// form asks for a quote instead.
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { api, errorMessage } from '../client/infra/api';
import { addCartItem, cartQuantity } from '../client/state/cart';
import { $user } from '../client/state/session-store';
import { toast } from '../client/infra/toast';
import { messages } from '../lib/messages';
import { formatCents, orderTotalCents } from '../lib/money';
import { pricingOfTool, unitPriceCents } from '../lib/pricing';
import { quantityError, quantityInput, quoteQuantityError } from '../lib/rules';
import type { Tool } from '../lib/entities';
import { DeliveryFields, EMPTY_DELIVERY, deliveryChecks, deliveryErrors, deliveryJson } from './ui/DeliveryFields';
import { DiscountCode } from './ui/DiscountCode';
import { Field } from './ui/Field';
import { RequireAuth } from './ui/Guards';
import { NextBreak } from './ui/NextBreak';
import { QuoteRequest } from './ui/QuoteRequest';
import { Spinner } from './ui/Spinner';
import { SubmitButton } from './ui/SubmitButton';
import { TotalsBreakdown, hasBreakdown } from './ui/TotalsBreakdown';
import { useForm } from './ui/useForm';
import { useTotalsQuote } from './ui/useTotalsQuote';

export default function PurchaseForm({ tool }: { tool: Tool }) {
  return (
    <RequireAuth>
      <Purchase initial={tool} />
    </RequireAuth>
  );
}

function Purchase({ initial }: { initial: Tool }) {
  const user = useStore($user)!;
  const [tool, setTool] = useState<Tool>(initial);
  const checkQuantity = (value: string) => quantityError(Number(value), tool);
  const pricing = useMemo(() => pricingOfTool(tool), [tool]);
  // Quantity and phone are checked when they lose focus; fields stay editable while the order is sent.
  const { values, setValues, errors, setErrors, busy, setBusy, bind } = useForm(
    { quantity: String(initial.minimumOrderQuantity), ...EMPTY_DELIVERY },
    { checks: { quantity: checkQuantity, ...deliveryChecks }, disableWhileBusy: false },
  );
  const [placed, setPlaced] = useState<string | null>(null);
  const [carted, setCarted] = useState<number | null>(null);

  /** The live tool: stock and limits as they are now, not as they were when the page was rendered. */
  const refresh = useCallback(
    () =>
      api.tools.get({ params: { id: initial._id } }, { cache: 'no-cache' }).then((live) => {
        setTool(live);
        for (const el of document.querySelectorAll('[data-live-stock]'))
          el.textContent = String(live.availableQuantity);
        return live;
      }),
    [initial._id],
  );
  useEffect(() => {
    refresh().catch(() => toast.error('Could not load the current stock. Please reload the page.'));
  }, [refresh]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const quantity = checkQuantity(values.quantity);
    const next = { ...deliveryErrors(values), ...(quantity ? { quantity } : {}) };
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      const result = await api.orders.create({
        body: {
          toolId: tool._id,
          quantity: Number(values.quantity),
          ...deliveryJson(values),
          ...(totals.applied ? { discountCode: totals.applied } : {}),
        },
      });
      if (result.acknowledged) {
        setCarted(null);
        toast.success(messages.orderPlaced);
        setPlaced(result.insertedId);
        setValues((v) => ({ ...v, ...EMPTY_DELIVERY }));
        totals.setCode('');
        const live = await refresh();
        setValues((v) => ({ ...v, quantity: String(live.minimumOrderQuantity) }));
      }
    } catch (error) {
      toast.error(errorMessage(error));
      await refresh().catch(() => {});
    } finally {
      setBusy(false);
    }
  }

  function onAddToCart() {
    setPlaced(null);
    const wanted = Number(values.quantity);
    const problem =
      quantityError(cartQuantity(tool._id) + wanted, tool) ??
      (Number.isInteger(wanted) && wanted > 0 ? null : messages.quantityBelowMinimum);
    setErrors((e) => {
      const { quantity: _, ...rest } = e;
      return problem ? { ...rest, quantity: problem } : rest;
    });
    if (problem) return setCarted(null);
    addCartItem(tool._id, wanted, { name: tool.name, price: tool.price, priceBreaks: tool.priceBreaks });
    setCarted(cartQuantity(tool._id));
  }

  /** The hint's button: the quantity of the next break, checked at once. */
  function setQuantity(quantity: number) {
    setValues((v) => ({ ...v, quantity: String(quantity) }));
    setErrors((e) => ({ ...e, quantity: checkQuantity(String(quantity)) ?? '' }));
  }

  const count = Number(values.quantity);
  const counted = Number.isInteger(count) && count > 0;
  const unit = unitPriceCents(pricing, counted ? count : tool.minimumOrderQuantity);
  const total = counted ? orderTotalCents(count, unit) : null;
  const quote = tool.quoteAbove !== null && counted && count > tool.quoteAbove;
  const soldOut = tool.availableQuantity < tool.minimumOrderQuantity && !quote;
  // The server's totals for this quantity (delivery, VAT, the applied code), while it can be ordered.
  const orderable = counted && !quote && !quantityError(count, tool);
  const totals = useTotalsQuote(orderable ? [{ toolId: tool._id, quantity: count }] : null);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-labelledby="purchase-heading">
      <p className="text-sm text-steel-600" aria-live="polite">
        In stock now: <strong data-testid="live-stock">{tool.availableQuantity}</strong> · minimum order{' '}
        {tool.minimumOrderQuantity}
        {tool.packSize > 1 && <> · packs of {tool.packSize}</>}
      </p>
      <DeliveryFields user={user} bind={bind}>
        <Field
          label="Quantity"
          id="quantity"
          {...quantityInput(tool)}
          max={tool.availableQuantity}
          {...bind('quantity')}
        />
      </DeliveryFields>
      <div>
        <p className="flex flex-wrap gap-x-4 text-sm" aria-live="polite">
          <span>
            Unit price: <strong data-testid="unit-price">{formatCents(unit)}</strong>
          </span>
          <span>
            Total: <strong data-testid="line-total">{total === null ? '—' : formatCents(total)}</strong>
          </span>
        </p>
        <NextBreak pricing={pricing} quantity={count} onAdd={setQuantity} className="mt-1" />
      </div>
      {!quote && (
        <div className="space-y-3">
          <DiscountCode quote={totals} />
          {totals.totals && (hasBreakdown(totals.totals) || totals.applied) && (
            <TotalsBreakdown totals={totals.totals} freeDelivery={totals.freeDelivery} />
          )}
        </div>
      )}
      {quote ? (
        <QuoteRequest
          items={[{ toolId: tool._id, quantity: count }]}
          problem={quoteQuantityError(count, tool)}
          intro={`Over ${tool.quoteAbove} units we price each order ourselves: ask for a quote and we answer with a price for this quantity.`}
        />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <SubmitButton
            busy={busy}
            busyLabel="Placing your order…"
            disabled={Boolean(errors.quantity) || soldOut}
            className="btn-primary w-full"
          >
            {soldOut ? 'Out of stock' : 'Purchase'}
          </SubmitButton>
          <button type="button" className="btn btn-outline w-full" onClick={onAddToCart} disabled={soldOut}>
            Add to cart
          </button>
        </div>
      )}
      {carted !== null && (
        <p className="text-sm text-success" role="status">
          {messages.cartAdded}: {carted} in your cart.{' '}
          <a href="/cart" className="font-semibold underline">
            View cart
          </a>
        </p>
      )}
      {busy && <Spinner label="Placing your order…" className="sr-only" />}
      {placed && (
        <p className="rounded-md bg-green-50 p-3 text-sm text-success" role="status">
          {messages.orderPlaced}.{' '}
          <a href={`/dashboard/payment/${placed}`} className="font-semibold underline">
            Pay now
          </a>{' '}
          or find it in{' '}
          <a href="/dashboard/myorders" className="font-semibold underline">
            My Orders
          </a>
          .
        </p>
      )}
    </form>
  );
}
