// The tools table's statements. tools.service.ts holds the rules around them (audit events, stock
// ledger, cache announcements); stock-moves.ts and the orders' SQL change available_quantity only.
import type { ToolEdit, ToolInput } from '../../lib/schemas.ts';
import type { Queryable } from '../db/client.ts';
import { COLUMNS, EDITABLE, editable, type ToolRow } from './tool-rows.ts';

/** Every tool (newest first), or only those of `ids`. */
export const selectTools = (db: Queryable, ids?: readonly string[]) =>
  db.query<ToolRow>(
    ids ? `SELECT ${COLUMNS} FROM tools WHERE id = ANY($1)` : `SELECT ${COLUMNS} FROM tools ORDER BY seq DESC`,
    ids ? [ids] : [],
  );

export const countTools = async (db: Queryable) =>
  (await db.query<{ total: number }>('SELECT count(*)::int AS total FROM tools'))[0].total;

/** A page of the catalogue, newest first, after the tool numbered `afterSeq` (one more row than `limit`: is there a next page). */
export const selectPage = (db: Queryable, limit: number, afterSeq: number | null) =>
  db.query<ToolRow & { seq: number }>(
    `SELECT ${COLUMNS}, seq FROM tools WHERE $2::int IS NULL OR seq < $2 ORDER BY seq DESC LIMIT $1`,
    [limit + 1, afterSeq],
  );

/**
 * A page with the tools below their low-stock level first (below = 1), then the others, newest first in
 * each, after the cursor [below, seq]. `shopLevel`: the shop's default level (else each minimum × 2).
 */
export const selectLowStockFirstPage = (
  db: Queryable,
  limit: number,
  shopLevel: number | null,
  after: [number, number] | null,
) =>
  db.query<ToolRow & { seq: number; below: number }>(
    `SELECT * FROM (
       SELECT ${COLUMNS}, seq,
         CASE WHEN available_quantity < coalesce(low_stock_units, $2::int, minimum_order_quantity * 2) THEN 1 ELSE 0 END AS below
       FROM tools) t
     WHERE $3::int IS NULL OR (below, seq) < ($3, $4) ORDER BY below DESC, seq DESC LIMIT $1`,
    [limit + 1, shopLevel, after?.[0] ?? null, after?.[1] ?? null],
  );

/** One tool; `lock` holds its row until the transaction ends. */
export const selectTool = async (db: Queryable, id: string, { lock = false } = {}) =>
  (await db.query<ToolRow>(`SELECT ${COLUMNS} FROM tools WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]))[0] as
    ToolRow | undefined;

export const insertTool = async (db: Queryable, id: string, input: ToolInput) =>
  (
    await db.query<ToolRow>(
      `INSERT INTO tools (id, ${EDITABLE}, available_quantity)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
      [id, ...editable(input), input.availableQuantity],
    )
  )[0];

export const updateTool = async (db: Queryable, id: string, input: ToolEdit) =>
  (
    await db.query<ToolRow>(
      `UPDATE tools SET (${EDITABLE}) = ($2, $3, $4, $5, $6, $7, $8, $9, $10) WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, ...editable(input)],
    )
  )[0] as ToolRow | undefined;

/**
 * Deletes a tool (its orders' lines keep their copy of its name and prices). The orders that name it are
 * locked first, as every other writer does (order, then stock): locking the tool first deadlocked with a
 * buyer deleting their order.
 */
export async function deleteTool(db: Queryable, id: string) {
  await db.query(
    'SELECT o.id FROM orders o WHERE o.id IN (SELECT order_id FROM order_items WHERE tool_id = $1) ORDER BY o.id FOR UPDATE OF o',
    [id],
  );
  return (await db.query<ToolRow>(`DELETE FROM tools WHERE id = $1 RETURNING ${COLUMNS}`, [id]))[0] as
    ToolRow | undefined;
}

/** Sets the units for sale; a new stock_version, so units held before are not given back on top. */
export const setStock = (db: Queryable, id: string, units: number) =>
  db.query('UPDATE tools SET available_quantity = $2, stock_version = stock_version + 1 WHERE id = $1', [id, units]);
