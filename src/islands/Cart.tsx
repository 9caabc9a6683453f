// /cart: the cart's lines against the live tools (a price or stock that changed is shown, never used
// silently), each line priced from its tool's breaks for its quantity, steppers by the pack, totals,
// and checkout: one order of every line (POST /api/orders), signed in; or a quote for the whole cart.
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, httpStatus } from '../client/infra/api';
import { $cart, acceptCurrent, removeCartItem, setQuantity, type CartLine } from '../client/state/cart';
// Loaded for its effect: the session module renews a refused token at checkout (it registers with
// the API client on load) and loads no Firebase.
import '../client/state/session';
import type { Order, Tool } from '../lib/entities';
import { messages } from '../lib/messages';
import { formatCents, orderTotalCents, toCents } from '../lib/money';
import { pricingOfTool, unitPriceCents } from '../lib/pricing';
import { quantityError, quoteQuantityError } from '../lib/rules';
import { CartQuote, Checkout, Placed } from './cart/CartCheckout';
import { Stepper } from './cart/Stepper';
import { DiscountCode } from './ui/DiscountCode';
import { NextBreak } from './ui/NextBreak';
import { TotalsBreakdown, hasBreakdown } from './ui/TotalsBreakdown';
import { useTotalsQuote } from './ui/useTotalsQuote';
import { useHydrated } from './ui/useHydrated';
import { Spinner } from './ui/Spinner';

/** The tool as the server has it now; 'gone' when it was deleted. */
type Live = Record<string, Tool | 'gone'>;

/** The table's columns: header and alignment (Remove's header is for screen readers). */
const CART_COLUMNS = [
  ['Tool', ''],
  ['Unit price', 'text-right'],
  ['Quantity', 'text-center'],
  ['Line total', 'text-right'],
  ['Remove', ''],
] as const;

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
            return [id, await api.tools.get({ params: { id } }, { cache: 'no-cache' })] as const;
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
  // The server's totals of the cart as it is (delivery, VAT, the applied code), asked again as it changes.
  const quote = useTotalsQuote(lines.length ? lines.map((l) => ({ toolId: l.toolId, quantity: l.quantity })) : null);

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
  const quoteProblem = rows.map((r) => r.quoteProblem).find(Boolean) ?? null;
  const quoteNeeded = rows.some(
    (r) => r.tool !== 'gone' && r.tool.quoteAbove !== null && r.line.quantity > r.tool.quoteAbove,
  );
  const totalCents = rows.reduce((sum, r) => sum + r.totalCents, 0);
  // With delivery, VAT or a discount the table's sum is the goods; the breakdown below has the total.
  const detailed = quote.totals !== null && (hasBreakdown(quote.totals) || quote.applied !== null);

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
            {CART_COLUMNS.map(([header, align]) => (
              <th key={header} scope="col" className={`py-2 ${align}`}>
                {header === 'Remove' ? <span className="sr-only">Remove</span> : header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {rows.map(
            ({ line, tool, problem, priceChanged: changed, seenCents, nowCents, unitCents, totalCents: lineTotal }) => (
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
                      {tool.packSize > 1 && ` · packs of ${tool.packSize}`}
                    </span>
                  )}
                  {tool !== 'gone' && (
                    <NextBreak
                      pricing={pricingOfTool(tool)}
                      quantity={line.quantity}
                      onAdd={(quantity) => setQuantity(line.toolId, quantity)}
                      className="mt-1 font-normal"
                    />
                  )}
                  {changed && tool !== 'gone' && (
                    <span className="mt-1 block text-xs font-normal">
                      Price changed from {formatCents(seenCents)} to {formatCents(nowCents)}.{' '}
                      <button
                        type="button"
                        className="underline"
                        onClick={() =>
                          acceptCurrent(line.toolId, {
                            name: tool.name,
                            price: tool.price,
                            priceBreaks: tool.priceBreaks,
                          })
                        }
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
                <td
                  data-label="Unit price"
                  className={`py-3 text-right tabular-nums ${STACKED}`}
                  data-testid="cart-unit-price"
                >
                  {tool === 'gone' ? '—' : formatCents(unitCents)}
                </td>
                <td data-label="Quantity" className={`py-3 ${STACKED}`}>
                  <Stepper
                    line={line}
                    step={tool === 'gone' ? 1 : tool.packSize}
                    onChange={() => setLineErrors(({ [line.toolId]: _, ...rest }) => rest)}
                  />
                </td>
                <td
                  data-label="Line total"
                  className={`py-3 text-right font-semibold tabular-nums ${STACKED}`}
                  data-testid="cart-line-total"
                >
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
            ),
          )}
        </tbody>
        <tfoot className="max-sm:block">
          <tr className="max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-4">
            <th scope="row" colSpan={3} className="py-3 text-right">
              {detailed ? 'Subtotal' : 'Total'}
            </th>
            <td className="py-3 text-right text-lg font-black tabular-nums" aria-live="polite" data-testid="cart-total">
              {formatCents(totalCents)}
            </td>
            <td className="max-sm:hidden" />
          </tr>
        </tfoot>
      </table>
      <section className="card grid gap-4 p-6 sm:grid-cols-2" aria-label="Discount and totals">
        <DiscountCode quote={quote} />
        {detailed && quote.totals && (
          <TotalsBreakdown totals={quote.totals} freeDelivery={quote.freeDelivery} className="self-end" />
        )}
      </section>
      <Checkout
        lines={lines}
        discountCode={quote.applied}
        blocked={blocked}
        onPlaced={setPlaced}
        onRefused={(errors) => {
          setLineErrors(errors);
          void reread(lines.map((l) => l.toolId)).catch(() => {});
        }}
      />
      <CartQuote lines={lines} problem={quoteProblem} needed={quoteNeeded} />
    </div>
  );
}

/**
 * What a line costs now (its unit price from the breaks for its quantity), and why it cannot be ordered
 * (the spec's messages) or asked about in a quote as it is. A changed price is the unit price for this
 * quantity as seen against now (the list prices, for lines kept before breaks).
 */
function lineState(line: CartLine, tool: Tool | 'gone' | undefined) {
  if (!tool || tool === 'gone') {
    const gone = messages.cartToolGone;
    return {
      problem: gone,
      quoteProblem: gone,
      priceChanged: false,
      seenCents: 0,
      nowCents: 0,
      unitCents: 0,
      totalCents: 0,
    };
  }
  const unitCents = unitPriceCents(pricingOfTool(tool), line.quantity);
  const seenCents = line.priceBreaks
    ? unitPriceCents(pricingOfTool({ ...tool, price: line.price, priceBreaks: line.priceBreaks }), line.quantity)
    : toCents(line.price);
  const nowCents = line.priceBreaks ? unitCents : toCents(tool.price);
  return {
    problem: quantityError(line.quantity, tool),
    quoteProblem: quoteQuantityError(line.quantity, tool),
    priceChanged: line.price > 0 && seenCents !== nowCents,
    seenCents,
    nowCents,
    unitCents,
    totalCents: orderTotalCents(line.quantity, unitCents),
  };
}

/** Below 640 px a line stacks: each cell on its own row, its column's name beside it. */
const STACKED =
  'max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-4 max-sm:py-1 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:tracking-wider max-sm:before:text-steel-600 max-sm:before:uppercase max-sm:before:content-[attr(data-label)]';
