// CSV in and out: the reads behind the exports, a page at a time (keyset on seq, so a long export holds
// one page and never skips or repeats a row), and the tools import, set-based: a file of 10,000 rows is
// a handful of statements in one transaction, not 10,000 round trips.
import type { ImportReport, ImportRow } from '../../lib/entities.ts';
import { toCents } from '../../lib/money.ts';
import type { OrderExportQuery } from '../../lib/schemas.ts';
import type { Db, Queryable } from '../db/client.ts';
import { emit, emitMany } from '../events/events.service.ts';
import { newId } from '../db/ids.ts';
import { recordMovements, type Movement } from '../tools/stock-ledger.ts';
import { type ToolsService } from '../tools/tools.service.ts';
import { toolJson, type ToolRow } from '../tools/tool-rows.ts';
import { planImport, type KnownTool, type PlannedRow, type ToolCsvRow } from './tools-csv.ts';

/** Rows an export reads per query. */
export const EXPORT_PAGE_SIZE = 500;

const TOOL_COLUMNS =
  'id, name, img, description, minimum_order_quantity, available_quantity, price_cents, price_breaks, pack_size, quote_above, low_stock_units';
const prefixed = (table: string) =>
  TOOL_COLUMNS.split(', ')
    .map((c) => `${table}.${c}`)
    .join(', ');

/** One event per tool an import wrote (for webhooks, as tool.created or tool.updated): the tool as it now is. */
const toolEvents = (rows: ToolRow[], actor: string) =>
  rows.map((row) => ({ subject: row.id, actor, data: { tool: toolJson(row) } }));

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

/** The counts of a report's actions. */
const summarise = (rows: ImportRow[]): ImportReport['summary'] => ({
  create: rows.filter((r) => r.action === 'create').length,
  update: rows.filter((r) => r.action === 'update').length,
  error: rows.filter((r) => r.action === 'error').length,
});

/** A report as the API answers it (the inputs kept for writing left out). */
const reportOf = (dryRun: boolean, planned: PlannedRow[]): ImportReport => {
  const rows = planned.map(({ input: _input, ...row }) => row);
  return { dryRun, rows, summary: summarise(rows) };
};

const knownTools = (q: Queryable) => q.query<KnownTool>('SELECT id, name FROM tools');

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

export function exchangeService(db: Db, tools: ToolsService) {
  /**
   * Writes a plan with no errors in the caller's transaction: the tools it updates locked in id order (as
   * every writer of tools locks them), then one UPDATE, one INSERT, the stock ledger and the audit event.
   * Returns false (nothing written) when a tool to update was deleted since the plan was made.
   */
  async function write(tx: Queryable, planned: PlannedRow[], actor: string): Promise<boolean> {
    const updates = planned.filter((r) => r.action === 'update');
    const creates = planned.filter((r) => r.action === 'create');
    const updateIds = updates.map((r) => r._id!);
    const locked = await tx.query<{ id: string; available_quantity: number }>(
      'SELECT id, available_quantity FROM tools WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
      [updateIds],
    );
    const before = new Map(locked.map((r) => [r.id, r.available_quantity]));
    const gone = updates.filter((r) => !before.has(r._id!));
    if (gone.length) {
      for (const row of gone)
        Object.assign(row, {
          action: 'error',
          errors: [{ column: '_id', message: 'The tool was deleted while the file was read' }],
        });
      return false;
    }
    const movements: Movement[] = [];
    if (updates.length) {
      // A stock that changes bumps stock_version, as a restock does: units held by unpaid orders were
      // taken from the old stock and do not come back on top of the new one.
      const updated = await tx.query<ToolRow>(
        `UPDATE tools t SET name = u.name, description = u.description, img = u.img, price_cents = u.price_cents,
           minimum_order_quantity = u.minimum_order_quantity, available_quantity = u.available_quantity,
           price_breaks = u.price_breaks::jsonb, pack_size = u.pack_size, quote_above = u.quote_above, low_stock_units = u.low_stock_units,
           stock_version = t.stock_version + CASE WHEN t.available_quantity <> u.available_quantity THEN 1 ELSE 0 END
         FROM ${UNNEST} WHERE t.id = u.id RETURNING ${prefixed('t')}`,
        columnsOf(updates, updateIds),
      );
      await emitMany(tx, 'tool.updated_by_import', toolEvents(updated, actor));
      for (const row of updates) {
        const balance = row.input!.availableQuantity;
        movements.push({ toolId: row._id!, delta: balance - before.get(row._id!)!, reason: 'import', balance, actor });
      }
    }
    if (creates.length) {
      const ids = creates.map(() => newId());
      // In the file's order (seq follows it), so the next export lists them in the same order.
      const created = await tx.query<ToolRow>(
        `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity, price_breaks,
           pack_size, quote_above, low_stock_units)
         SELECT u.id, u.name, u.description, u.img, u.price_cents, u.minimum_order_quantity, u.available_quantity, u.price_breaks::jsonb,
           u.pack_size, u.quote_above, u.low_stock_units
         FROM ${UNNEST} ORDER BY u.n RETURNING ${TOOL_COLUMNS}`,
        columnsOf(creates, ids),
      );
      await emitMany(tx, 'tool.added_by_import', toolEvents(created, actor));
      creates.forEach((row, i) => {
        row._id = ids[i];
        const balance = row.input!.availableQuantity;
        movements.push({ toolId: ids[i], delta: balance, reason: 'import', balance, actor });
      });
    }
    await recordMovements(tx, movements);
    const count = updates.length + creates.length;
    await emit(tx, {
      type: 'tools.imported',
      subject: 'tools',
      actor,
      data: {
        target: `${count} tool${count === 1 ? '' : 's'}`,
        before: null,
        after: { created: creates.length, updated: updates.length },
      },
    });
    return true;
  }

  return {
    /** The catalogue, oldest first (the order an import then recreates), `size` tools a page. */
    async *toolPages(size = EXPORT_PAGE_SIZE): AsyncGenerator<ToolRow[]> {
      let after = 0;
      for (;;) {
        const rows = await db.query<ToolRow & { seq: number }>(
          `SELECT ${TOOL_COLUMNS}, seq FROM tools WHERE seq > $1 ORDER BY seq LIMIT $2`,
          [after, size],
        );
        if (rows.length) yield rows;
        if (rows.length < size) return;
        after = rows[rows.length - 1].seq;
      }
    },

    /**
     * The lines of the orders placed on the asked days (UTC, both included), oldest order first, each
     * order's lines in order; `size` orders a page (an order has at most MAX_ORDER_LINES lines).
     */
    async *orderLinePages({ from, to }: OrderExportQuery, size = EXPORT_PAGE_SIZE): AsyncGenerator<OrderLineRow[]> {
      let after = 0;
      for (;;) {
        const rows = await db.query<OrderLineRow>(
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
        if (rows.length) yield rows;
        if (new Set(rows.map((r) => r.seq)).size < size) return;
        after = rows[rows.length - 1].seq;
      }
    },

    /**
     * A file's rows matched to the catalogue. A dry run (the default) only reports. With `apply`, every row
     * is written in one transaction, or none: `applied` is false when any row has an error.
     */
    async importTools(
      rows: ToolCsvRow[],
      { apply, actor }: { apply: boolean; actor: string },
    ): Promise<{ report: ImportReport; applied: boolean }> {
      if (!apply) return { report: reportOf(true, planImport(rows, await knownTools(db))), applied: false };
      const outcome = await db.transaction(async (tx) => {
        const planned = planImport(rows, await knownTools(tx));
        if (planned.some((r) => r.action === 'error')) return { planned, applied: false };
        return { planned, applied: await write(tx, planned, actor) };
      });
      if (outcome.applied) tools.invalidate('tools');
      return { report: reportOf(false, outcome.planned), applied: outcome.applied };
    },
  };
}
export type ExchangeService = ReturnType<typeof exchangeService>;
