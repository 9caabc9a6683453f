// A tool as stored and as the API answers it: the row, its mappings, the rules read from it.
import type { Tool } from '../../lib/entities.ts';
import { toCents, toDollars } from '../../lib/money.ts';
import type { PriceBreakCents } from '../../lib/pricing.ts';
import type { PriceBreak, ToolEdit } from '../../lib/schemas.ts';

export interface ToolRow {
  id: string;
  name: string;
  img: string;
  description: string;
  minimum_order_quantity: number;
  available_quantity: number;
  price_cents: number;
  /** Cents, ascending (jsonb). */
  price_breaks: PriceBreakCents[];
  pack_size: number;
  quote_above: number | null;
  low_stock_units: number | null;
}

export const toolJson = (r: ToolRow): Tool => ({
  _id: r.id,
  name: r.name,
  img: r.img,
  description: r.description,
  minimumOrderQuantity: r.minimum_order_quantity,
  availableQuantity: r.available_quantity,
  price: toDollars(r.price_cents),
  priceBreaks: r.price_breaks.map((b) => ({ minQuantity: b.minQuantity, price: toDollars(b.priceCents) })),
  packSize: r.pack_size,
  quoteAbove: r.quote_above,
});

/** The pricing a row carries, as src/lib/pricing.ts reads it. */
export const pricingOf = (r: ToolRow) => ({
  priceCents: r.price_cents,
  minimumOrderQuantity: r.minimum_order_quantity,
  priceBreaks: r.price_breaks,
});

/** The quantity rules a row carries, as src/lib/rules.ts reads them. */
export const quantityRulesOf = (r: ToolRow) => ({
  minimumOrderQuantity: r.minimum_order_quantity,
  availableQuantity: r.available_quantity,
  packSize: r.pack_size,
  quoteAbove: r.quote_above,
});

/**
 * A tool's low-stock level: its own, else the shop's (LOW_STOCK_UNITS), else two minimum orders (a buyer
 * could no longer take two of them).
 */
export const lowStockLevel = (
  r: Pick<ToolRow, 'low_stock_units' | 'minimum_order_quantity'>,
  shopLevel?: number,
): number => r.low_stock_units ?? shopLevel ?? r.minimum_order_quantity * 2;

export const breaksCents = (breaks: PriceBreak[]): PriceBreakCents[] =>
  breaks.map((b) => ({ minQuantity: b.minQuantity, priceCents: toCents(b.price) }));

/** What the audit log keeps of a tool added, edited or deleted (the trade's fields only when set). */
export const auditedTool = (r: ToolRow) => ({
  name: r.name,
  price: toDollars(r.price_cents),
  minimumOrderQuantity: r.minimum_order_quantity,
  availableQuantity: r.available_quantity,
  ...(r.price_breaks.length
    ? {
        priceBreaks: r.price_breaks
          .map((b) => `${b.minQuantity}+ at $${toDollars(b.priceCents).toFixed(2)}`)
          .join(', '),
      }
    : {}),
  ...(r.pack_size !== 1 ? { packSize: r.pack_size } : {}),
  ...(r.quote_above !== null ? { quoteAbove: r.quote_above } : {}),
  ...(r.low_stock_units !== null ? { lowStockUnits: r.low_stock_units } : {}),
});

/** Where a page of Manage products ends: the last tool's number, or (low stock first) [below, number]. */
export type ToolCursor = number | [below: number, seq: number];

/** The columns every read of a tool takes (its row as ToolRow). */
export const COLUMNS =
  'id, name, img, description, minimum_order_quantity, available_quantity, price_cents, price_breaks, pack_size, quote_above, low_stock_units';

/** The columns a tool's form sets (all but its id and stock), as parameters $2… of an insert or update. */
export const editable = (input: ToolEdit) => [
  input.name,
  input.description,
  input.img,
  toCents(input.price),
  input.minimumOrderQuantity,
  JSON.stringify(breaksCents(input.priceBreaks)),
  input.packSize,
  input.quoteAbove ?? null,
  input.lowStockUnits ?? null,
];
export const EDITABLE =
  'name, description, img, price_cents, minimum_order_quantity, price_breaks, pack_size, quote_above, low_stock_units';
