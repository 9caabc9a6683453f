import type { AdminTool, ListPage, StockMovement, Tool } from '../../lib/entities.ts';
import type { ToolEdit, ToolInput } from '../../lib/schemas.ts';
import { ledgerPage, recordMovements } from './stock-ledger.ts';
import type { Db } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import { newId } from '../db/ids.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import { invalid } from '../errors.ts';
import type { Change, ChangeBus } from '../caching/changes.ts';
import { catalogue as catalogueCache } from './catalogue.ts';
import { auditedTool, lowStockLevel, toolJson, type ToolCursor, type ToolRow } from './tool-rows.ts';
import {
  countTools,
  deleteTool,
  insertTool,
  selectLowStockFirstPage,
  selectPage,
  selectTool,
  selectTools,
  setStock,
  updateTool,
} from './tools.sql.ts';
import { giveBack, giveBackOrder, returnUnits, takeStock } from './stock-moves.ts';

/**
 * A safety net only: every change is announced (and a PostgreSQL listener that reconnects drops
 * everything), so the whole catalogue is read again this rarely. Each full read of a large catalogue
 * holds PGlite's one thread for tens of milliseconds (every 5 s, it was the p99 of every read).
 */
const CACHE_TTL_MS = 60_000;

/**
 * The catalogue, newest first. Reads are kept in memory (catalogue.ts): a stock change announced on the
 * bus reads its tools again, any other change the whole catalogue; by this server (all tool and stock
 * writes announce; callers of take/giveBack invalidate after commit) or by another sharing the
 * database, so a public read costs no query.
 */
export function toolsService(db: Db, changes: ChangeBus, options: { lowStockUnits?: number } = {}) {
  const adminToolJson = (r: ToolRow): AdminTool => {
    const lowStockUnits = lowStockLevel(r, options.lowStockUnits);
    return {
      ...toolJson(r),
      lowStockUnits,
      lowStock: r.available_quantity < lowStockUnits,
      ownLowStockUnits: r.low_stock_units,
    };
  };
  /** Ids of the tools that exist, as of the last read: the server 404s prebuilt pages of deleted tools. */
  let ids: Set<string> | undefined;
  const catalogue = catalogueCache({
    ttlMs: CACHE_TTL_MS,
    load: async (only) => (await selectTools(db, only)).map(toolJson),
    kept: (tools) => {
      ids = new Set(tools.map((t) => t._id));
    },
  });
  changes.subscribe((change, changed) => {
    if (change !== 'tools' && change !== 'stock') return;
    if (change === 'stock' && changed) catalogue.stockChanged(changed);
    else catalogue.drop();
    // Another server added or deleted a tool: learn the ids now, not on the next read.
    if (change === 'tools') void list().catch(() => {});
  });
  /**
   * Says (after commit) that the catalogue or stock changed, here and on every other server. A stock
   * change names the tools it touched when the caller knows them (only those are read again).
   */
  const invalidate = (change: Change = 'stock', tools?: readonly string[]) => changes.announce(change, tools);

  const list = (): Promise<Tool[]> => catalogue.list();

  return {
    list,
    invalidate,
    /**
     * One page of the catalogue after the tool numbered `after`: newest first, or with `lowStockFirst` the
     * tools below their low-stock level first, then the others, newest first in each (the cursor is then
     * [below: 0 or 1, seq]). For an `admin` (Manage products) each tool says its low-stock level and
     * whether it is below it.
     */
    async page(
      { limit, after }: PageAsk<ToolCursor>,
      { lowStockFirst = false, admin = false } = {},
    ): Promise<ListPage<AdminTool | Tool>> {
      const json = admin ? adminToolJson : toolJson;
      const total = await countTools(db);
      if (lowStockFirst) {
        const cursor = Array.isArray(after) ? after : null;
        const rows = await selectLowStockFirstPage(db, limit, options.lowStockUnits ?? null, cursor);
        return listPage(rows, limit, total, (r): ToolCursor => [r.below, r.seq], json);
      }
      if (Array.isArray(after)) throw invalid('cursor is not valid', { cursor: 'cursor is not valid' });
      const rows = await selectPage(db, limit, after ?? null);
      return listPage(rows, limit, total, (r) => r.seq, json);
    },
    /** One tool as Edit product loads it (admins), read fresh; undefined when there is no such tool. */
    async forEdit(id: string): Promise<AdminTool | undefined> {
      const row = await selectTool(db, id);
      return row && adminToolJson(row);
    },
    /** One page of a tool's stock movements, newest first; undefined when there is no such tool. */
    async ledger(id: string, ask: PageAsk<number>): Promise<ListPage<StockMovement> | undefined> {
      return (await selectTool(db, id)) ? ledgerPage(db, id, ask) : undefined;
    },
    /** Whether a tool exists, from memory: undefined until the catalogue was read once. */
    exists: (id: string): boolean | undefined => ids?.has(id),
    get: (id: string): Promise<Tool | undefined> => catalogue.tool(id),
    /** Adds a tool and its audit event ('tool.added', by `actor`) in one transaction; returns its id. */
    async create(input: ToolInput, actor: string): Promise<string> {
      const id = newId();
      await db.transaction(async (tx) => {
        const row = await insertTool(tx, id, input);
        await recordMovements(tx, [
          {
            toolId: id,
            delta: row.available_quantity,
            reason: 'admin restock',
            balance: row.available_quantity,
            actor,
          },
        ]);
        await emit(tx, {
          type: 'tool.added',
          subject: id,
          actor,
          data: { target: row.name, before: null, after: auditedTool(row), tool: toolJson(row) },
        });
      });
      ids?.add(id);
      invalidate('tools');
      return id;
    },
    /**
     * Edit product: every field but the stock, with its audit event ('tool.updated', before → after) in
     * one transaction. Orders placed before keep the prices they were placed at. False: no such tool.
     */
    async update(id: string, input: ToolEdit, actor: string): Promise<boolean> {
      const updated = await db.transaction(async (tx) => {
        const before = await selectTool(tx, id, { lock: true });
        if (!before) return false;
        const after = (await updateTool(tx, id, input))!;
        await emit(tx, {
          type: 'tool.updated',
          subject: id,
          actor,
          data: { target: after.name, before: auditedTool(before), after: auditedTool(after), tool: toolJson(after) },
        });
        return true;
      });
      if (updated) invalidate('tools');
      return updated;
    },
    /** Deletes a tool and writes its audit event ('tool.deleted', by `actor`) in one transaction. */
    async remove(id: string, actor: string): Promise<number> {
      const deleted = await db.transaction(async (tx) => {
        const gone = await deleteTool(tx, id);
        if (gone)
          await emit(tx, {
            type: 'tool.deleted',
            subject: id,
            actor,
            data: { target: gone.name, before: auditedTool(gone), after: null, tool: toolJson(gone) },
          });
        return gone;
      });
      // At once, not on the next list(): the server checks these ids before serving a prebuilt page.
      ids?.delete(id);
      invalidate('tools');
      return deleted ? 1 : 0;
    },
    /**
     * Sets the units for sale. Units still held by unpaid orders are not counted on top: those orders
     * took them from an older stock_version, so they do not give them back on expiry or delete. The
     * audit event ('tool.restocked', by `actor`, units before → after) is written in the same transaction.
     */
    async restock(id: string, availableQuantity: number, actor: string): Promise<number> {
      const rows = await db.transaction(async (tx) => {
        // The units before, under the row's lock: the audit event's before → after is exact.
        const before = await selectTool(tx, id, { lock: true });
        if (!before) return [];
        await setStock(tx, id, availableQuantity);
        await recordMovements(tx, [
          {
            toolId: id,
            delta: availableQuantity - before.available_quantity,
            reason: 'admin restock',
            balance: availableQuantity,
            actor,
          },
        ]);
        await emit(tx, {
          type: 'tool.restocked',
          subject: id,
          actor,
          data: {
            target: before.name,
            before: { availableQuantity: before.available_quantity },
            after: { availableQuantity },
            // The whole tool as it now is, for webhooks (sent as tool.updated).
            tool: toolJson({ ...before, available_quantity: availableQuantity }),
          },
        });
        return [id];
      });
      if (rows.length) invalidate('stock', rows);
      return rows.length;
    },
    take: takeStock,
    returnUnits,
    giveBackOrder,
    giveBack,
  };
}
export type ToolsService = ReturnType<typeof toolsService>;
