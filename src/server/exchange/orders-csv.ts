// The orders file: one row per order line (ORDER_CSV_COLUMNS), for accounting and spreadsheets. The
// order's own fields repeat on each of its lines; money is dollars with two decimals, times are UTC.
import type { OrderLineRow } from './exchange.sql.ts';
import type { Cell } from './csv.ts';
import { dollarsCell } from './tools-csv.ts';

/** An instant as ISO 8601 in UTC to the second, which spreadsheets read as a date. */
const instant = (at: string | Date): string => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const orderLineCells = (r: OrderLineRow): Cell[] => [
  r.id,
  instant(r.created_at),
  r.user_name,
  r.email,
  r.payment,
  r.shipping_status,
  r.line,
  r.tool_id,
  r.product_name,
  r.quantity,
  r.unit_price_cents === null ? null : dollarsCell(r.unit_price_cents),
  r.unit_price_cents === null || r.quantity === null ? null : dollarsCell(r.unit_price_cents * r.quantity),
  dollarsCell(r.total_cents),
  dollarsCell(r.refunded_cents),
  r.transaction_id,
];

/** The file's name: the days it covers. */
export const ordersFileName = (from?: string, to?: string): string =>
  from || to ? `orders-${from ?? 'start'}-to-${to ?? 'today'}.csv` : 'orders.csv';
