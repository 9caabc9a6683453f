// CSV in and out: the reads behind the exports, a page at a time (keyset on seq, so a long export holds
// one page and never skips or repeats a row), and the tools import, set-based: a file of 10,000 rows is
// a handful of statements in one transaction, not 10,000 round trips.
import type { ImportReport, ImportRow } from '../../lib/entities.ts';
import type { OrderExportQuery } from '../../lib/schemas.ts';
import type { Db, Queryable } from '../db/client.ts';
import { emit, emitMany } from '../events/events.service.ts';
import { newId } from '../db/ids.ts';
import { recordMovements, type Movement } from '../tools/stock-ledger.ts';
import { type ToolsService } from '../tools/tools.service.ts';
import { toolJson, type ToolRow } from '../tools/tool-rows.ts';
import { planImport, type PlannedRow, type ToolCsvRow } from './tools-csv.ts';
import {
  insertTools,
  lockTools,
  selectKnownTools,
  selectOrderLinePage,
  selectToolPage,
  updateTools,
  type OrderLineRow,
} from './exchange.sql.ts';

/** Rows an export reads per query. */
export const EXPORT_PAGE_SIZE = 500;

/** One event per tool an import wrote (for webhooks, as tool.created or tool.updated): the tool as it now is. */
const toolEvents = (rows: ToolRow[], actor: string) =>
  rows.map((row) => ({ subject: row.id, actor, data: { tool: toolJson(row) } }));

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
    const locked = await lockTools(tx, updateIds);
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
      const updated = await updateTools(tx, updates, updateIds);
      await emitMany(tx, 'tool.updated_by_import', toolEvents(updated, actor));
      for (const row of updates) {
        const balance = row.input!.availableQuantity;
        movements.push({ toolId: row._id!, delta: balance - before.get(row._id!)!, reason: 'import', balance, actor });
      }
    }
    if (creates.length) {
      const ids = creates.map(() => newId());
      const created = await insertTools(tx, creates, ids);
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
        const rows = await selectToolPage(db, after, size);
        if (rows.length) yield rows;
        if (rows.length < size) return;
        after = rows[rows.length - 1].seq;
      }
    },

    /**
     * The lines of the orders placed on the asked days (UTC, both included), oldest order first, each
     * order's lines in order; `size` orders a page (an order has at most MAX_ORDER_LINES lines).
     */
    async *orderLinePages(days: OrderExportQuery, size = EXPORT_PAGE_SIZE): AsyncGenerator<OrderLineRow[]> {
      let after = 0;
      for (;;) {
        const rows = await selectOrderLinePage(db, after, days, size);
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
      if (!apply) return { report: reportOf(true, planImport(rows, await selectKnownTools(db))), applied: false };
      const outcome = await db.transaction(async (tx) => {
        const planned = planImport(rows, await selectKnownTools(tx));
        if (planned.some((r) => r.action === 'error')) return { planned, applied: false };
        return { planned, applied: await write(tx, planned, actor) };
      });
      if (outcome.applied) tools.invalidate('tools');
      return { report: reportOf(false, outcome.planned), applied: outcome.applied };
    },
  };
}
export type ExchangeService = ReturnType<typeof exchangeService>;
