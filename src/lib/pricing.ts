// Quantity pricing (price breaks) and pack sizes: one set of rules for the tool page, the purchase
// form, the cart and the server, which prices every line from the database with these functions.
import type { Tool } from './entities.ts';
import { formatCents, toCents } from './money.ts';

/** A price break: from `minQuantity` units on, each unit costs `priceCents`. */
export interface PriceBreakCents {
  minQuantity: number;
  priceCents: number;
}

/** What pricing needs of a tool (cents; breaks ascending by quantity, as the schema keeps them). */
export interface Priced {
  priceCents: number;
  minimumOrderQuantity: number;
  priceBreaks: readonly PriceBreakCents[];
}

/** A tool as the API serves it (dollars) in the cents these functions read. */
export const pricingOfTool = (
  tool: Pick<Tool, 'price' | 'minimumOrderQuantity' | 'priceBreaks' | 'packSize'>,
): Priced & { packSize: number } => ({
  priceCents: toCents(tool.price),
  minimumOrderQuantity: tool.minimumOrderQuantity,
  priceBreaks: (tool.priceBreaks ?? []).map((b) => ({ minQuantity: b.minQuantity, priceCents: toCents(b.price) })),
  packSize: tool.packSize ?? 1,
});

/** The unit price of `quantity` units: the last break reached, else the list price. */
export function unitPriceCents(tool: Pick<Priced, 'priceCents' | 'priceBreaks'>, quantity: number): number {
  let price = tool.priceCents;
  for (const b of tool.priceBreaks) if (quantity >= b.minQuantity) price = b.priceCents;
  return price;
}

/** One row of a tool's price table: `from`–`to` units (to null: and above) at `priceCents` each. */
export interface PriceTier {
  from: number;
  to: number | null;
  priceCents: number;
}

/** The price table: from the minimum order at the list price, then one tier per break. */
export function priceTiers(tool: Priced): PriceTier[] {
  const starts = [{ minQuantity: tool.minimumOrderQuantity, priceCents: tool.priceCents }, ...tool.priceBreaks];
  return starts.map((s, i) => ({
    from: s.minQuantity,
    to: i + 1 < starts.length ? starts[i + 1].minQuantity - 1 : null,
    priceCents: s.priceCents,
  }));
}

/** "10–99: $12.40 · 100–499: $11.20 · 500+: $9.90" */
export const tierLabel = (t: PriceTier): string =>
  `${t.from}${t.to === null ? '+' : `–${t.to}`}: ${formatCents(t.priceCents)}`;
export const priceTableText = (tool: Priced): string => priceTiers(tool).map(tierLabel).join(' · ');

/**
 * The next break when it is a few units away (at most a quarter of its quantity, rounded up to whole
 * packs): "Add 12 more for $11.20 each". Null when there is none or it is far off.
 */
export function nextBreakHint(
  tool: Priced & { packSize: number },
  quantity: number,
): { more: number; priceCents: number } | null {
  const next = tool.priceBreaks.find((b) => b.minQuantity > quantity);
  if (!next || !Number.isFinite(quantity) || quantity < tool.minimumOrderQuantity) return null;
  const more = Math.ceil((next.minQuantity - quantity) / tool.packSize) * tool.packSize;
  return more <= Math.ceil(next.minQuantity / 4) ? { more, priceCents: next.priceCents } : null;
}
export const nextBreakText = (hint: { more: number; priceCents: number }): string =>
  `Add ${hint.more} more for ${formatCents(hint.priceCents)} each`;
