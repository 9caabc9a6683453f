// CSV in and out (issue 26): the files' columns, the price-break cell, the import's limits and report.
// Shared by the API (server/exchange/) and the Import / Export screen.
import type { PriceBreak } from './schemas.ts';

/** The tools file's columns, in order: the export writes them, the import reads them (in any order). */
export const TOOL_CSV_COLUMNS = [
  '_id',
  'name',
  'description',
  'img',
  'price',
  'minimumOrderQuantity',
  'availableQuantity',
  'packSize',
  'quoteAbove',
  'lowStockUnits',
  'priceBreaks',
] as const;
export type ToolCsvColumn = (typeof TOOL_CSV_COLUMNS)[number];
/** Columns an import may leave out (empty: no _id, a pack of 1, no quote threshold, the shop's low-stock level, no breaks). */
const OPTIONAL_TOOL_CSV_COLUMNS: readonly ToolCsvColumn[] = [
  '_id',
  'packSize',
  'quoteAbove',
  'lowStockUnits',
  'priceBreaks',
];
/** An import without one of these is refused whole. */
export const REQUIRED_TOOL_CSV_COLUMNS: readonly ToolCsvColumn[] = TOOL_CSV_COLUMNS.filter(
  (c) => !OPTIONAL_TOOL_CSV_COLUMNS.includes(c),
);

/** The orders file's columns: one row per order line, the order's own fields repeated on each of its lines. */
export const ORDER_CSV_COLUMNS = [
  'orderId',
  'placedAt',
  'buyerName',
  'email',
  'payment',
  'shippingStatus',
  'line',
  'toolId',
  'productName',
  'quantity',
  'unitPrice',
  'lineTotal',
  'orderTotal',
  'refunded',
  'transactionId',
] as const;

/** The largest CSV body POST /import/tools reads, and the most rows it takes. */
export const CSV_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const CSV_IMPORT_MAX_ROWS = 50_000;

/** A tool's breaks as one cell: `minQuantity:price` pairs joined by `|`, e.g. `100:11.20|500:9.90` (empty: none). */
export const formatPriceBreaks = (breaks: PriceBreak[]): string =>
  breaks.map((b) => `${b.minQuantity}:${b.price.toFixed(2)}`).join('|');

export const PRICE_BREAKS_FORMAT = 'Write price breaks as quantity:price pairs joined by |, e.g. 100:11.20|500:9.90';

/**
 * A price-break cell read back, as text the tool schema then checks (numbers, order, prices falling);
 * undefined when a pair is not `quantity:price`.
 */
export function parsePriceBreaks(cell: string): { minQuantity: string; price: string }[] | undefined {
  const text = cell.trim();
  if (!text) return [];
  const pairs = text.split('|').map((pair) => /^\s*([^:\s]+)\s*:\s*([^:\s]+)\s*$/.exec(pair));
  if (pairs.some((m) => !m)) return undefined;
  return pairs.map((m) => ({ minQuantity: m![1], price: m![2] }));
}
