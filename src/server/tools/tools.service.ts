import type { ListPage, Tool } from '../../lib/entities.ts';
import { toCents, toDollars } from '../../lib/money.ts';
import type { ToolInput } from '../../lib/schemas.ts';
import type { Db, Queryable } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import { newId } from '../ids.ts';
import { listPage, type PageAsk } from '../http/paging.ts';
import type { Change, ChangeBus } from '../changes.ts';
import { ttlCache } from '../cache.ts';

export interface ToolRow {
  id: string;
  name: string;
  img: string;
  description: string;
  minimum_order_quantity: number;
  available_quantity: number;
  price_cents: number;
}

export const toolJson = (r: ToolRow): Tool => ({
  _id: r.id,
  name: r.name,
  img: r.img,
  description: r.description,
  minimumOrderQuantity: r.minimum_order_quantity,
  availableQuantity: r.available_quantity,
  price: toDollars(r.price_cents),
});

/** What the audit log keeps of a tool added or deleted. */
const auditedTool = (r: ToolRow) => ({
  name: r.name,
  price: toDollars(r.price_cents),
  minimumOrderQuantity: r.minimum_order_quantity,
  availableQuantity: r.available_quantity,
});

const CACHE_TTL_MS = 5000;
const COLUMNS = 'id, name, img, description, minimum_order_quantity, available_quantity, price_cents';

/**
 * The catalogue, newest first. Reads are cached in memory and dropped on every change announced on
 * the bus, by this server (all tool and stock writes announce; callers of take/giveBack invalidate
 * after commit) or by another sharing the database, so a public read costs no query.
 */
export function toolsService(db: Db, changes: ChangeBus) {
  /** Ids of the tools that exist, as of the last read: the server 404s prebuilt pages of deleted tools. */
  let ids: Set<string> | undefined;
  // The TTL is a safety net for a missed announcement (the listener reconnecting).
  const catalogue = ttlCache<Tool[]>({
    ttlMs: CACHE_TTL_MS,
    kept: (tools) => {
      ids = new Set(tools.map((t) => t._id));
    },
  });
  changes.subscribe((change) => {
    if (change === 'reviews') return;
    catalogue.drop();
    // Another server added or deleted a tool: learn the ids now, not on the next read.
    if (change === 'tools') void list().catch(() => {});
  });
  /** Says (after commit) that the catalogue or stock changed, here and on every other server. */
  const invalidate = (change: Change = 'stock') => changes.announce(change);

  function list(): Promise<Tool[]> {
    return catalogue.get('all', async () => (await db.query<ToolRow>(`SELECT ${COLUMNS} FROM tools ORDER BY seq DESC`)).map(toolJson));
  }

  return {
    list,
    invalidate,
    /** One page of the catalogue, newest first, after the tool numbered `after` (the admin's product list). */
    async page({ limit, after }: PageAsk<number>): Promise<ListPage<Tool>> {
      const rows = await db.query<ToolRow & { seq: number }>(
        `SELECT ${COLUMNS}, seq FROM tools WHERE $2::int IS NULL OR seq < $2 ORDER BY seq DESC LIMIT $1`,
        [limit + 1, after ?? null],
      );
      const [{ total }] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM tools');
      return listPage(rows, limit, total, (r) => r.seq, toolJson);
    },
    /** Whether a tool exists, from memory: undefined until the catalogue was read once. */
    exists: (id: string): boolean | undefined => ids?.has(id),
    async get(id: string): Promise<Tool | undefined> {
      return (await list()).find((t) => t._id === id);
    },
    /** Adds a tool and its audit event ('tool.added', by `actor`) in one transaction; returns its id. */
    async create(input: ToolInput, actor: string): Promise<string> {
      const id = newId();
      await db.transaction(async (tx) => {
        const [row] = await tx.query<ToolRow>(
          `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
          [id, input.name, input.description, input.img, toCents(input.price), input.minimumOrderQuantity, input.availableQuantity],
        );
        await emit(tx, { type: 'tool.added', subject: id, actor, data: { target: row.name, before: null, after: auditedTool(row) } });
      });
      ids?.add(id);
      invalidate('tools');
      return id;
    },
    /** Deletes a tool and writes its audit event ('tool.deleted', by `actor`) in one transaction. */
    async remove(id: string, actor: string): Promise<number> {
      const rows = await db.transaction(async (tx) => {
        // Deleting the tool rewrites its orders' tool_id. Lock those orders first, as every other writer
        // does (order, then stock): locking the tool first deadlocked with a buyer deleting their order.
        await tx.query(
          'SELECT o.id FROM orders o WHERE o.id IN (SELECT order_id FROM order_items WHERE tool_id = $1) ORDER BY o.id FOR UPDATE OF o',
          [id],
        );
        const gone = await tx.query<ToolRow>(`DELETE FROM tools WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
        if (gone.length)
          await emit(tx, { type: 'tool.deleted', subject: id, actor, data: { target: gone[0].name, before: auditedTool(gone[0]), after: null } });
        return gone;
      });
      // At once, not on the next list(): the server checks these ids before serving a prebuilt page.
      ids?.delete(id);
      invalidate('tools');
      return rows.length;
    },
    /**
     * Sets the units for sale. Units still held by unpaid orders are not counted on top: those orders
     * took them from an older stock_version, so they do not give them back on expiry or delete. The
     * audit event ('tool.restocked', by `actor`, units before → after) is written in the same transaction.
     */
    async restock(id: string, availableQuantity: number, actor: string): Promise<number> {
      const rows = await db.transaction(async (tx) => {
        // The units before, under the row's lock: the audit event's before → after is exact.
        const [before] = await tx.query<{ name: string; available_quantity: number }>(
          'SELECT name, available_quantity FROM tools WHERE id = $1 FOR UPDATE',
          [id],
        );
        if (!before) return [];
        await tx.query('UPDATE tools SET available_quantity = $2, stock_version = stock_version + 1 WHERE id = $1', [
          id,
          availableQuantity,
        ]);
        await emit(tx, {
          type: 'tool.restocked',
          subject: id,
          actor,
          data: {
            target: before.name,
            before: { availableQuantity: before.available_quantity },
            after: { availableQuantity },
          },
        });
        return [id];
      });
      invalidate();
      return rows.length;
    },
    /**
     * Takes stock atomically; returns the tool row as it was sold (with the restock the units came from),
     * or undefined when not enough is left.
     */
    async take(tx: Queryable, id: string, quantity: number): Promise<(ToolRow & { stock_version: number }) | undefined> {
      const [row] = await tx.query<ToolRow & { stock_version: number }>(
        `UPDATE tools SET available_quantity = available_quantity - $2
         WHERE id = $1 AND available_quantity >= $2 AND minimum_order_quantity <= $2
         RETURNING ${COLUMNS}, stock_version`,
        [id, quantity],
      );
      return row;
    },
    /**
     * Units that came back (a refunded order the admin restocks): added to the stock whatever restock
     * happened since, since they are physically back. A deleted tool takes nothing.
     */
    async returnUnits(tx: Queryable, id: string | null, quantity: number): Promise<void> {
      if (!id) return;
      await tx.query('UPDATE tools SET available_quantity = available_quantity + $2 WHERE id = $1', [id, quantity]);
    },
    /** Returns an order's units, unless the tool was restocked since they were taken (stockVersion). */
    async giveBack(tx: Queryable, id: string | null, quantity: number, stockVersion: number): Promise<void> {
      if (!id) return;
      await tx.query('UPDATE tools SET available_quantity = available_quantity + $2 WHERE id = $1 AND stock_version = $3', [
        id,
        quantity,
        stockVersion,
      ]);
    },
  };
}
export type ToolsService = ReturnType<typeof toolsService>;
