// An order's totals (issue 27): the goods, a discount, delivery and VAT, in integer cents, computed once
// per order (never per line) with half-up rounding. The server computes every placed order's amounts
// with this; the purchase form and the cart show the same numbers before the order is placed.

/** The shop's settings as they apply to an order (cents and hundredths of a percent: 1500 = 15%). */
export interface TotalsSettings {
  deliveryFlatCents: number;
  /** Goods (after the discount) from which delivery is free; null: never free. */
  freeDeliveryOverCents: number | null;
  vatRateHundredths: number;
  pricesIncludeVat: boolean;
}

/** A discount as it applies: a percentage (hundredths of a percent) or an amount off the goods. */
export type DiscountRule = { percentOffHundredths: number } | { amountOffCents: number };

export interface Totals {
  subtotalCents: number;
  discountCents: number;
  deliveryCents: number;
  /** The VAT: added to the total, or (pricesIncludeVat) the share of it already in the prices. */
  taxCents: number;
  taxIncluded: boolean;
  /** The rate applied (hundredths of a percent). */
  vatRateHundredths: number;
  totalCents: number;
}

export const NO_SETTINGS: TotalsSettings = {
  deliveryFlatCents: 0,
  freeDeliveryOverCents: null,
  vatRateHundredths: 0,
  pricesIncludeVat: false,
};

/** a × b / c rounded half-up, for non-negative integers (exact below 2^53). */
export function mulDivHalfUp(a: number, b: number, c: number): number {
  return Math.floor((2 * a * b + c) / (2 * c));
}

/**
 * The breakdown of an order of these lines: subtotal (the lines at their unit prices), the discount
 * (never below zero goods), delivery (free from freeDeliveryOver of goods after the discount), then VAT
 * on goods and delivery. With prices that include VAT, the total is goods + delivery and taxCents the
 * VAT share of it; else the VAT is added.
 */
export function orderTotals(
  lines: readonly { quantity: number; unitCents: number }[],
  settings: TotalsSettings,
  discount?: DiscountRule | null,
): Totals {
  const subtotalCents = lines.reduce((sum, l) => sum + l.quantity * l.unitCents, 0);
  const discountCents = !discount
    ? 0
    : 'amountOffCents' in discount
      ? Math.min(discount.amountOffCents, subtotalCents)
      : Math.min(mulDivHalfUp(subtotalCents, discount.percentOffHundredths, 10_000), subtotalCents);
  const goodsCents = subtotalCents - discountCents;
  const free = settings.freeDeliveryOverCents !== null && goodsCents >= settings.freeDeliveryOverCents;
  const deliveryCents = free || lines.length === 0 ? 0 : settings.deliveryFlatCents;
  const base = goodsCents + deliveryCents;
  const rate = settings.vatRateHundredths;
  const taxCents = settings.pricesIncludeVat
    ? mulDivHalfUp(base, rate, 10_000 + rate)
    : mulDivHalfUp(base, rate, 10_000);
  return {
    subtotalCents,
    discountCents,
    deliveryCents,
    taxCents,
    taxIncluded: settings.pricesIncludeVat,
    vatRateHundredths: rate,
    totalCents: settings.pricesIncludeVat ? base : base + taxCents,
  };
}

/** An order's amounts besides its total, as an email or an invoice shows them (orders.subtotal_cents…). */
export interface Breakdown extends Omit<Totals, 'totalCents'> {
  discountCode: string | null;
}

/**
 * The rows above an order's total ([label, amount]), or none when the total is the plain sum of the
 * lines (no discount, delivery or VAT: orders placed before these existed read as before).
 */
export function breakdownRows(b: Breakdown | null | undefined, format: (cents: number) => string): [string, string][] {
  if (!b || (b.discountCents === 0 && b.deliveryCents === 0 && b.taxCents === 0)) return [];
  const vat = `VAT ${Number((b.vatRateHundredths / 100).toFixed(2))}%`;
  return [
    ['Subtotal', format(b.subtotalCents)],
    ...(b.discountCents > 0
      ? [[`Discount${b.discountCode ? ` (${b.discountCode})` : ''}`, `-${format(b.discountCents)}`] as [string, string]]
      : []),
    ...(b.deliveryCents > 0 ? [['Delivery', format(b.deliveryCents)] as [string, string]] : []),
    ...(b.taxCents > 0 ? [[b.taxIncluded ? `Includes ${vat}` : vat, format(b.taxCents)] as [string, string]] : []),
  ];
}

/** The breakdown of totals as placed, with the code that gave its discount. */
export const breakdownOf = (t: Totals, discountCode: string | null): Breakdown => ({
  subtotalCents: t.subtotalCents,
  discountCents: t.discountCents,
  deliveryCents: t.deliveryCents,
  taxCents: t.taxCents,
  taxIncluded: t.taxIncluded,
  vatRateHundredths: t.vatRateHundredths,
  discountCode,
});
