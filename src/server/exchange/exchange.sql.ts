// The statements of the CSV exchange: export pages over tools and orders, and the tools import's
// set-based writes (locks, one UPDATE, one INSERT). exchange.service.ts owns the plan and the transaction.
import { toCents } from '../../lib/money.ts';
import type { OrderExportQuery } from '../../lib/schemas.ts';
import type { Queryable } from '../db/client.ts';
import type { ToolRow } from '../tools/tool-rows.ts';
import type { KnownTool, PlannedRow } from './tools-csv.ts';

const TOOL_COLUMNS =
  'id, name, img, description, minimum_order_quantity, available_quantity, price_cents, price_breaks, pack_size, quote_above, low_stock_units';
const prefixed = (table: string) =>
  TOOL_COLUMNS.split(', ')
    .map((c) => `${table}.${c}`)
    .join(', ');

/** An order line with its order's fields, as the orders file writes it. */
export interface OrderLineRow {
  id: string;
  seq: number;
  created_at: string | Date;
  user_name: string;
  email: string;
  payment: string;
  shipping_status: string;
  total_cents: number | string;
  refunded_cents: number | string;
  transaction_id: string | null;
  /** The line's fields: null only for an order without lines (none is made so; kept visible if one were). */
  line: number | null;
  tool_id: string | null;
  product_name: string | null;
  quantity: number | null;
  unit_price_cents: number | null;
}

/** The planned rows' fields as parallel arrays, one per column, for `unnest`. */
function columnsOf(rows: PlannedRow[], ids: string[]) {
  const inputs = rows.map((r) => r.input!);
  return [
    ids,
    inputs.map((t) => t.name),
    inputs.map((t) => t.description),
    inputs.map((t) => t.img),
    inputs.map((t) => toCents(t.price)),
    inputs.map((t) => t.minimumOrderQuantity),
    inputs.map((t) => t.availableQuantity),
    inputs.map((t) =>
      JSON.stringify(t.priceBreaks.map((b) => ({ minQuantity: b.minQuantity, priceCents: toCents(b.price) }))),
    ),
    inputs.map((t) => t.packSize),
    inputs.map((t) => t.quoteAbove ?? null),
    inputs.map((t) => t.lowStockUnits ?? null),
  ];
}

const UNNEST = `unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::text[], $9::int[], $10::int[], $11::int[])
  WITH ORDINALITY AS u(id, name, description, img, price_cents, minimum_order_quantity, available_quantity, price_breaks, pack_size, quote_above,
    low_stock_units, n)`;

/** Every tool's id and name, for matching a file's rows to the catalogue. */
export const selectKnownTools = (q: Queryable) => q.query<KnownTool>('SELECT id, name FROM tools');

/** The tools of `ids` that still exist, with their stock, locked in id order (as every writer of tools locks them). */
export const lockTools = (q: Queryable, ids: string[]) =>
  q.query<{ id: string; available_quantity: number }>(
    'SELECT id, available_quantity FROM tools WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [ids],
  );

/**
 * Updates the planned rows' tools (`ids`: theirs, in the same order); returns them as they now are. A stock
 * that changes bumps stock_version, as a restock does: units held by unpaid orders were taken from the old
 * stock and do not come back on top of the new one.
 */
export const updateTools = (q: Queryable, rows: PlannedRow[], ids: string[]) =>
  q.query<ToolRow>(
    `UPDATE tools t SET name = u.name, description = u.description, img = u.img, price_cents = u.price_cents,
       minimum_order_quantity = u.minimum_order_quantity, available_quantity = u.available_quantity,
       price_breaks = u.price_breaks::jsonb, pack_size = u.pack_size, quote_above = u.quote_above, low_stock_units = u.low_stock_units,
       stock_version = t.stock_version + CASE WHEN t.available_quantity <> u.available_quantity THEN 1 ELSE 0 END
     FROM ${UNNEST} WHERE t.id = u.id RETURNING ${prefixed('t')}`,
    columnsOf(rows, ids),
  );

/**
 * Creates the planned rows' tools with the new `ids`; returns them. In the file's order (seq follows it),
 * so the next export lists them in the same order.
 */
export const insertTools = (q: Queryable, rows: PlannedRow[], ids: string[]) =>
  q.query<ToolRow>(
    `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity, price_breaks,
       pack_size, quote_above, low_stock_units)
     SELECT u.id, u.name, u.description, u.img, u.price_cents, u.minimum_order_quantity, u.available_quantity, u.price_breaks::jsonb,
       u.pack_size, u.quote_above, u.low_stock_units
     FROM ${UNNEST} ORDER BY u.n RETURNING ${TOOL_COLUMNS}`,
    columnsOf(rows, ids),
  );

/** Up to `size` tools after the one numbered `after`, oldest first. */
export const selectToolPage = (q: Queryable, after: number, size: number) =>
  q.query<ToolRow & { seq: number }>(`SELECT ${TOOL_COLUMNS}, seq FROM tools WHERE seq > $1 ORDER BY seq LIMIT $2`, [
    after,
    size,
  ]);

/**
 * The lines of up to `size` orders after the one numbered `after`, placed on the asked days (UTC, both
 * included), oldest order first, each order's lines in order.
 */
export const selectOrderLinePage = (q: Queryable, after: number, { from, to }: OrderExportQuery, size: number) =>
  q.query<OrderLineRow>(
    `WITH page AS (
       SELECT id, seq, created_at, user_name, email, payment, shipping_status, total_cents, refunded_cents, transaction_id
       FROM orders
       WHERE seq > $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3::timestamptz + interval '1 day')
       ORDER BY seq LIMIT $4)
     SELECT page.*, i.line, i.tool_id, i.product_name, i.quantity, i.unit_price_cents
     FROM page LEFT JOIN order_items i ON i.order_id = page.id
     ORDER BY page.seq, i.line`,
    [after, from ? `${from}T00:00:00Z` : null, to ? `${to}T00:00:00Z` : null, size],
  );
