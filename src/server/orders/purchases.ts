// What a buyer has bought, for other features to ask (orders own their tables): a tool's reviews are
// open to the buyers who paid for it.
import type { Queryable } from '../db/client.ts';
import type { CurrentUser } from '../types.ts';

/**
 * Whether the user has a paid order with a line of this tool: their email and their Firebase account, as
 * My Orders counts theirs (an account made again for the same email has bought nothing yet).
 */
export async function hasPaidFor(db: Queryable, user: CurrentUser, toolId: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id
     WHERE o.email = $1 AND o.buyer_uid IS NOT DISTINCT FROM $2 AND o.payment = 'paid' AND i.tool_id = $3
     LIMIT 1`,
    [user.email, user.uid, toolId],
  );
  return rows.length > 0;
}
