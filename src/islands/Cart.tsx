// /cart: the cart's lines against the live tools (a price or stock that changed is shown, never used
// silently), steppers, totals, and checkout: one order of every line (POST /api/orders), signed in.
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api, enc, errorMessage, httpStatus, serverFieldErrors } from '../client/api';
import { $cart, acceptCurrent, clearCart, removeCartItem, setQuantity, type CartLine } from '../client/cart';
// Loaded for its effect: the session module renews a refused token at checkout (it registers with
// the API client on load) and loads no Firebase.
import '../client/session';
import { $user } from '../client/session-store';
import type { Order, Tool } from '../lib/entities';
import { messages } from '../lib/messages';
import { formatCents, toCents } from '../lib/money';
import { quantityError } from '../lib/rules';
import { DeliveryFields, EMPTY_DELIVERY, deliveryChecks, deliveryErrors, deliveryJson } from './ui/DeliveryFields';
import { useHydrated } from './ui/useHydrated';
import { Spinner } from './ui/Spinner';
import { SubmitButton } from './ui/SubmitButton';
import { OrderLinesList } from './ui/OrderLines';
import { useForm } from './ui/useForm';

/** The tool as the server has it now; 'gone' when it was deleted. */
type Live = Record<string, Tool | 'gone'>;

export default function Cart() {
  const hydrated = useHydrated();
  const lines = useStore($cart);
  const [live, setLive] = useState<Live>({});
  const [placed, setPlaced] = useState<Order | null>(null);
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});

  const reread = useCallback(
    (ids: string[]) =>
      Promise.all(
        ids.map(async (id) => {
          try {
            return [id, await api.get<Tool>(`tools/${enc(id)}`, { cache: 'no-cache' })] as const;
          } catch (error) {
            if (httpStatus(error) === 404) return [id, 'gone'] as const;
            throw error;
          }
        }),
      ).then((read) => setLive((now) => ({ ...now, ...Object.fromEntries(read) }))),
    [],
  );

  const ids = lines.map((l) => l.toolId).join(',');
  const [failed, setFailed] = useState(false);
  // Only a new line needs a read: the tools read (or being read) so far. A failed read is asked again.
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const missing = ids ? ids.split(',').filter((id) => !asked.current.has(id)) : [];
    if (!missing.length) return;
    for (const id of missing) asked.current.add(id);
    reread(missing).catch(() => {
      for (const id of missing) asked.current.delete(id);
      setFailed(true);
    });
  }, [ids, reread]);

  if (!hydrated) return <Spinner label="Loading your cart…" />;
  if (placed) return <Placed order={placed} />;
  if (!lines.length) {
    return (
      <div className="card p-8 text-center">
        <p className="text-lg font-semibold">{messages.cartEmpty}</p>
        <a href="/tools" className="btn btn-dark mt-4 no-underline">
          Browse our tools
        </a>
      </div>
    );
  }
  const loading = lines.some((l) => !(l.toolId in live));
  if (failed && loading)
    return <p role="alert">Could not load the current prices and stock. Please reload the page.</p>;
  if (loading) return <Spinner label="Checking prices and stock…" />;

  const rows = lines.map((line) => ({ line, tool: live[line.toolId], ...lineState(line, live[line.toolId]) }));
  const priceChanged = rows.some((r) => r.priceChanged);
  const blocked = rows.some((r) => r.problem) || priceChanged;
  const totalCents = rows.reduce((sum, r) => sum + r.totalCents, 0);

  return (
    <div className="space-y-6">
      {priceChanged && (
        <p className="rounded-md border border-amber bg-amber/10 p-3 text-sm" role="alert">
          {messages.cartChanged}
        </p>
      )}
      <table className="w-full text-left text-sm max-sm:block">
        <caption className="sr-only">Tools in your cart</caption>
        <thead className="border-b border-steel-200 text-xs tracking-wider text-steel-600 uppercase max-sm:sr-only">
          <tr>
            <th scope="col" className="py-2">
              Tool
            </th>
            <th scope="col" className="py-2 text-right">
              Unit price
            </th>
            <th scope="col" className="py-2 text-center">
              Quantity
            </th>
            <th scope="col" className="py-2 text-right">
              Line total
            </th>
            <th scope="col" className="py-2">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {rows.map(({ line, tool, problem, priceChanged: changed, totalCents: lineTotal }) => (
            <tr
              key={line.toolId}
              className="border-b border-steel-100 align-top max-sm:block max-sm:py-2"
              data-testid="cart-line"
            >
              <th scope="row" className="py-3 pr-2 font-semibold max-sm:block max-sm:pb-1">
                {tool === 'gone' ? line.name : <a href={`/tools/${line.toolId}`}>{tool.name}</a>}
                {tool !== 'gone' && (
                  <span className="block text-xs font-normal text-steel-600">
                    {tool.availableQuantity} available · minimum {tool.minimumOrderQuantity}
                  </span>
                )}
                {changed && tool !== 'gone' && (
                  <span className="mt-1 block text-xs font-normal">
                    Price changed from {formatCents(toCents(line.price))} to {formatCents(toCents(tool.price))}.{' '}
                    <button
                      type="button"
                      className="underline"
                      onClick={() => acceptCurrent(line.toolId, { name: tool.name, price: tool.price })}
                    >
                      Use the new price
                    </button>
                  </span>
                )}
                {(problem || lineErrors[line.toolId]) && (
                  <span className="field-error block" role="alert">
                    {problem ?? lineErrors[line.toolId]}
                  </span>
                )}
              </th>
              <td data-label="Unit price" className={`py-3 text-right tabular-nums ${STACKED}`}>
                {tool === 'gone' ? '—' : formatCents(toCents(tool.price))}
              </td>
              <td data-label="Quantity" className={`py-3 ${STACKED}`}>
                <Stepper line={line} onChange={() => setLineErrors(({ [line.toolId]: _, ...rest }) => rest)} />
              </td>
              <td data-label="Line total" className={`py-3 text-right font-semibold tabular-nums ${STACKED}`}>
                {tool === 'gone' ? '—' : formatCents(lineTotal)}
              </td>
              <td className="py-3 text-right max-sm:block max-sm:py-1">
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  onClick={() => removeCartItem(line.toolId)}
                  aria-label={`Remove ${line.name || 'this tool'}`}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="max-sm:block">
          <tr className="max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-4">
            <th scope="row" colSpan={3} className="py-3 text-right">
              Total
            </th>
            <td className="py-3 text-right text-lg font-black tabular-nums" aria-live="polite" data-testid="cart-total">
              {formatCents(totalCents)}
            </td>
            <td className="max-sm:hidden" />
          </tr>
        </tfoot>
      </table>
      <Checkout
        lines={lines}
        blocked={blocked}
        onPlaced={setPlaced}
        onRefused={(errors) => {
          setLineErrors(errors);
          void reread(lines.map((l) => l.toolId)).catch(() => {});
        }}
      />
    </div>
  );
}

/** What a line costs now, and why it cannot be ordered as it is (the spec's messages). */
function lineState(line: CartLine, tool: Tool | 'gone' | undefined) {
  if (!tool || tool === 'gone') return { problem: messages.cartToolGone, priceChanged: false, totalCents: 0 };
  return {
    problem: quantityError(line.quantity, tool),
    priceChanged: line.price > 0 && toCents(line.price) !== toCents(tool.price),
    totalCents: toCents(tool.price) * line.quantity,
  };
}

/** Below 640 px a line stacks: each cell on its own row, its column's name beside it. */
const STACKED =
  'max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-4 max-sm:py-1 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:tracking-wider max-sm:before:text-steel-600 max-sm:before:uppercase max-sm:before:content-[attr(data-label)]';

function Stepper({ line, onChange }: { line: CartLine; onChange: () => void }) {
  const name = line.name || 'this tool';
  const change = (quantity: number) => {
    if (Number.isInteger(quantity) && quantity >= 1) {
      setQuantity(line.toolId, quantity);
      onChange();
    }
  };
  return (
    <div className="flex items-center justify-center gap-1">
      <button
        type="button"
        className="btn btn-outline btn-sm"
        aria-label={`One less of ${name}`}
        disabled={line.quantity <= 1}
        onClick={() => change(line.quantity - 1)}
      >
        −
      </button>
      <input
        className="input w-20 text-center tabular-nums"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        aria-label={`Quantity of ${name}`}
        value={line.quantity}
        onChange={(e) => change(Number(e.target.value))}
      />
      <button
        type="button"
        className="btn btn-outline btn-sm"
        aria-label={`One more of ${name}`}
        onClick={() => change(line.quantity + 1)}
      >
        +
      </button>
    </div>
  );
}

function Checkout({
  lines,
  blocked,
  onPlaced,
  onRefused,
}: {
  lines: CartLine[];
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
        <a href="/login?from=/cart" className="font-semibold underline">
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
      const result = await api.post<{ acknowledged: boolean; insertedId: string }>('orders', {
        items,
        ...deliveryJson(values),
      });
      const order = await api.get<Order>(`booking/${enc(result.insertedId)}`);
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

/** The confirmation: the order's lines as the server placed them, and the way to pay. */
function Placed({ order }: { order: Order }) {
  return (
    <section className="card space-y-4 p-6" aria-labelledby="placed-heading">
      <h2 id="placed-heading" className="text-xl font-black text-success" role="status">
        {messages.orderPlaced}
      </h2>
      <OrderLinesList order={order} />
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
