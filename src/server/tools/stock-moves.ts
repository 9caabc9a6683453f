// Stock that moves with orders, inside the caller's transaction: taken at placing, given back when an
// unpaid order goes (unless the tool was restocked since), returned by a refund's restock. Each movement
// has its ledger row; the caller announces the change after commit.
import { recordMovements } from './stock-ledger.ts';
import type { Queryable } from '../db/client.ts';
import { COLUMNS, type ToolRow } from './tool-rows.ts';

/**
 * Takes stock atomically; returns the tool row as it was sold (with the restock the units came from),
 * or undefined when not enough is left or the quantity breaks the tool's rules. The caller records
 * the sale in the ledger (it knows the order).
 */
export async function takeStock(
  tx: Queryable,
  id: string,
  quantity: number,
  quoted = false,
): Promise<(ToolRow & { stock_version: number }) | undefined> {
  // A quote's order may go above quote_above: that is what the quote was for.
  const [row] = await tx.query<ToolRow & { stock_version: number }>(
    `UPDATE tools SET available_quantity = available_quantity - $2
     WHERE id = $1 AND available_quantity >= $2 AND minimum_order_quantity <= $2 AND $2 % pack_size = 0
       AND ($3 OR quote_above IS NULL OR $2 <= quote_above)
     RETURNING ${COLUMNS}, stock_version`,
    [id, quantity, quoted],
  );
  return row;
}
/**
 * Units that came back (a refunded order the admin restocks): added to the stock whatever restock
 * happened since, since they are physically back. A deleted tool takes nothing.
 */
export async function returnUnits(
  tx: Queryable,
  id: string | null,
  quantity: number,
  orderId: string,
  actor: string,
): Promise<void> {
  if (!id) return;
  const [row] = await tx.query<{ available_quantity: number }>(
    'UPDATE tools SET available_quantity = available_quantity + $2 WHERE id = $1 RETURNING available_quantity',
    [id, quantity],
  );
  if (row)
    await recordMovements(tx, [
      { toolId: id, delta: quantity, reason: 'refund restock', balance: row.available_quantity, orderId, actor },
    ]);
}
/**
 * An unpaid order's units back with their ledger rows, in one statement (two for several lines: their
 * tools are locked first in id order, as every writer locks them): each line whose tool was not
 * restocked since its units were taken (stock_version). `toolIds`: the order's tools. `actor`: who
 * let the order go (null: its hold ran out).
 */
export async function giveBackOrder(
  tx: Queryable,
  orderId: string,
  toolIds: readonly string[],
  actor: string | null,
): Promise<void> {
  if (!toolIds.length) return;
  // Both sent at once, before any await (they run in order): a caller may send statements beside these.
  await Promise.all([
    toolIds.length > 1 ? tx.query('SELECT id FROM tools WHERE id = ANY($1) ORDER BY id FOR UPDATE', [toolIds]) : null,
    tx.query(
      `WITH back AS (
       UPDATE tools t SET available_quantity = t.available_quantity + i.quantity
         FROM order_items i WHERE i.order_id = $1 AND t.id = i.tool_id AND t.stock_version = i.stock_version
       RETURNING t.id, i.quantity, t.available_quantity)
     INSERT INTO stock_ledger (tool_id, delta, reason, order_id, actor, balance)
     SELECT id, quantity, 'hold released', $1, $2, available_quantity FROM back WHERE quantity <> 0 ORDER BY id`,
      [orderId, actor],
    ),
  ]);
}
/**
 * Returns an order's units, unless the tool was restocked since they were taken (stockVersion).
 * `actor`: who let the order go (null: its hold ran out).
 */
export async function giveBack(
  tx: Queryable,
  id: string | null,
  quantity: number,
  stockVersion: number,
  orderId: string | null,
  actor: string | null,
): Promise<void> {
  if (!id) return;
  const [row] = await tx.query<{ available_quantity: number }>(
    'UPDATE tools SET available_quantity = available_quantity + $2 WHERE id = $1 AND stock_version = $3 RETURNING available_quantity',
    [id, quantity, stockVersion],
  );
  if (row)
    await recordMovements(tx, [
      { toolId: id, delta: quantity, reason: 'hold released', balance: row.available_quantity, orderId, actor },
    ]);
}
