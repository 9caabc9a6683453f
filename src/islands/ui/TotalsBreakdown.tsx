// An order's amounts (issue 27) as one compact list, wherever they are shown: the purchase form, the
// cart, the payment page, My Orders and the order page. The numbers are the server's (a quote or the
// order as placed); this only lays them out.
import type { TotalsBreakdown as Totals } from '../../lib/entities';
import { formatCents } from '../../lib/money';

/** Whether the amounts say more than a plain total (orders placed before issue 27 carry zeros). */
export const hasBreakdown = (t: Totals): boolean => t.discountCents > 0 || t.deliveryCents > 0 || t.taxCents > 0;

const percent = (rate: number) => `${Number(rate.toFixed(2))}%`;

/** The breakdown on one line, for a table cell's title. */
export function breakdownText(t: Totals): string {
  return [
    `Subtotal ${formatCents(t.subtotalCents)}`,
    t.discountCents > 0 && `Discount${t.discountCode ? ` (${t.discountCode})` : ''} −${formatCents(t.discountCents)}`,
    t.deliveryCents > 0 && `Delivery ${formatCents(t.deliveryCents)}`,
    t.taxCents > 0 && `${t.taxIncluded ? 'includes ' : ''}VAT ${percent(t.vatRate)} ${formatCents(t.taxCents)}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Subtotal, the code's discount, delivery, VAT (added, or the share already in the prices) and the
 * total. A $0 delivery reads 'Free' when `freeDelivery` (a threshold made it free), else it is left out.
 */
export function TotalsBreakdown({
  totals: t,
  freeDelivery = false,
  className = '',
}: {
  totals: Totals;
  freeDelivery?: boolean;
  className?: string;
}) {
  const row = 'flex justify-between gap-4 [&>dd]:whitespace-nowrap';
  return (
    <dl
      className={`space-y-1 text-sm tabular-nums ${className}`}
      aria-label="Order totals"
      data-testid="totals-breakdown"
    >
      <div className={row}>
        <dt>Subtotal</dt>
        <dd>{formatCents(t.subtotalCents)}</dd>
      </div>
      {t.discountCents > 0 && (
        <div className={`${row} text-success`}>
          <dt>Discount{t.discountCode && ` (${t.discountCode})`}</dt>
          <dd>−{formatCents(t.discountCents)}</dd>
        </div>
      )}
      {(t.deliveryCents > 0 || freeDelivery) && (
        <div className={row}>
          <dt>Delivery</dt>
          <dd>{t.deliveryCents > 0 ? formatCents(t.deliveryCents) : 'Free'}</dd>
        </div>
      )}
      {t.taxCents > 0 && (
        <div className={`${row} ${t.taxIncluded ? 'text-steel-600' : ''}`}>
          <dt>{t.taxIncluded ? `includes VAT ${percent(t.vatRate)}` : `VAT ${percent(t.vatRate)}`}</dt>
          <dd>
            {t.taxIncluded ? '' : '+'}
            {formatCents(t.taxCents)}
          </dd>
        </div>
      )}
      <div className={`${row} border-t border-steel-200 pt-1 font-bold`}>
        <dt>Total</dt>
        <dd data-testid="breakdown-total">{formatCents(t.totalCents)}</dd>
      </div>
    </dl>
  );
}
