// The stock ledger: every change of a tool's units for sale is a row, written by the writer of the
// change in its transaction, with the units after it (balance). So a tool's newest row always equals
// tools.available_quantity, and the rows say where every unit went (expectStockLedgerBalanced
// in tests/api/helpers.ts checks it after the race and rush suites).
import type { ListPage, StockMovement, StockReason } from '../../lib/entities.ts';
import type { Queryable } from '../db/client.ts';
import { listPage, type PageAsk } from '../db/paging.ts';

export interface Movement {
  toolId: string;
  delta: number;
  reason: StockReason;
  /** The units for sale after this movement (read under the tool's row lock). */
  balance: number;
  orderId?: string | null;
  actor?: string | null;
}

/** Records movements in the caller's transaction, in the given order; movements of 0 units are skipped. */
export async function recordMovements(tx: Queryable, movements: Movement[]): Promise<void> {
  const rows = movements.filter((m) => m.delta !== 0);
  if (!rows.length) return;
  await tx.query(
    `INSERT INTO stock_ledger (tool_id, delta, reason, order_id, actor, balance)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::int[])`,
    [
      rows.map((m) => m.toolId),
      rows.map((m) => m.delta),
      rows.map((m) => m.reason),
      rows.map((m) => m.orderId ?? null),
      rows.map((m) => m.actor ?? null),
      rows.map((m) => m.balance),
    ],
  );
}

interface LedgerRow {
  seq: number | string;
  tool_id: string;
  delta: number;
  reason: StockReason;
  order_id: string | null;
  actor: string | null;
  at: string | Date;
  balance: number;
}

const movementJson = (r: LedgerRow): StockMovement => ({
  id: Number(r.seq),
  toolId: r.tool_id,
  delta: r.delta,
  reason: r.reason,
  orderId: r.order_id,
  actor: r.actor,
  at: new Date(r.at).toISOString(),
  balance: r.balance,
});

/** One page of a tool's movements, newest first (stock_ledger_tool_idx), and how many there are. */
export async function ledgerPage(
  q: Queryable,
  toolId: string,
  { limit, after }: PageAsk<number>,
): Promise<ListPage<StockMovement>> {
  const rows = await q.query<LedgerRow>(
    `SELECT * FROM stock_ledger WHERE tool_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
    [toolId, after ?? null, limit + 1],
  );
  const [{ total }] = await q.query<{ total: number }>(
    'SELECT count(*)::int AS total FROM stock_ledger WHERE tool_id = $1',
    [toolId],
  );
  return listPage(rows, limit, total, (r) => Number(r.seq), movementJson);
}
