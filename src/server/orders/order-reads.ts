// The orders as the dashboards and the checkout flow read them: lists, pages, searches, due holds.
import type { ListPage, Order } from '../../lib/entities.ts';
import type { OrderListQuery } from '../../lib/schemas.ts';
import type { Db } from '../db/client.ts';
import { invalid } from '../errors.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import { ORDER_SELECT, orderJson, type OrderCursor, type OrderRow } from './order-rows.ts';

export function orderReads(db: Db, now: () => Date) {
  return {
    /** Unpaid orders whose hold has run out, the longest past first (a batch for the checkout flow). */
    async dueHolds(limit = 200): Promise<string[]> {
      const due = await db.query<{ id: string }>(
        `SELECT id FROM orders WHERE payment = 'unpaid' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
        [now(), limit],
      );
      return due.map((r) => r.id);
    },

    /** When the next unpaid order's hold runs out (orders_unpaid_expiry_idx), or null with none. */
    async nextHoldEnd(): Promise<Date | null> {
      const [row] = await db.query<{ at: string | Date | null }>(
        `SELECT min(expires_at) AS at FROM orders WHERE payment = 'unpaid'`,
      );
      return row?.at ? new Date(row.at) : null;
    },

    /** All orders, an email's, or (with buyerUid) only those that Firebase account placed under that email. */
    async list(email?: string, buyerUid?: string | null): Promise<Order[]> {
      const rows = email
        ? buyerUid !== undefined
          ? await db.query<OrderRow>(
              `${ORDER_SELECT} WHERE o.email = $1 AND o.buyer_uid IS NOT DISTINCT FROM $2 ORDER BY o.seq DESC`,
              [email, buyerUid],
            )
          : await db.query<OrderRow>(`${ORDER_SELECT} WHERE o.email = $1 ORDER BY o.seq DESC`, [email])
        : await db.query<OrderRow>(`${ORDER_SELECT} ORDER BY o.seq DESC`);
      return rows.map(orderJson);
    },

    /**
     * One page of list()'s order (newest first) after the order numbered `after`, and the list's total:
     * an index range either way (orders.seq, or orders_email_idx for one buyer), and for all orders the
     * kept count (migration 8), since counting a million rows would take longer than the page.
     */
    async page({ limit, after }: PageAsk<number>, email?: string, buyerUid?: string | null): Promise<ListPage<Order>> {
      const params: unknown[] = [];
      const filters: string[] = [];
      if (email) {
        params.push(email);
        filters.push(`o.email = $${params.length}`);
        // = and IS NULL rather than IS NOT DISTINCT FROM, which no index serves (orders_buyer_idx).
        if (buyerUid === null) filters.push('o.buyer_uid IS NULL');
        else if (buyerUid !== undefined) filters.push(`o.buyer_uid = $${params.push(buyerUid)}`);
      }
      const [{ total }] = email
        ? await db.query<{ total: number }>(
            `SELECT count(*)::int AS total FROM orders o WHERE ${filters.join(' AND ')}`,
            params,
          )
        : await db.query<{ total: number }>(
            `SELECT coalesce(sum(n), 0)::int AS total FROM row_counts WHERE name = 'orders'`,
          );
      const where = after === undefined ? filters : [...filters, `o.seq < $${params.push(after)}`];
      const rows = await db.query<OrderRow & { seq: number }>(
        `${ORDER_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY o.seq DESC LIMIT $${params.push(limit + 1)}`,
        params,
      );
      return listPage(rows, limit, total, (r) => r.seq, orderJson);
    },

    /**
     * Manage All Orders' view: a page of the orders that match the search and filters, in the asked
     * order, and how many match. The cursor is the last row's sort key (seq, or total then seq), so a
     * page never repeats or skips an order whatever is placed meanwhile.
     */
    async find(ask: OrderListQuery, after?: OrderCursor): Promise<ListPage<Order>> {
      const params: unknown[] = [];
      const filters: string[] = [];
      const q = ask.q?.trim();
      if (q) {
        const like = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        filters.push(
          `(o.id = $${params.push(q.toLowerCase())} OR o.email LIKE $${params.push(like)} OR lower(o.user_name) LIKE $${params.length})`,
        );
      }
      if (ask.payment) filters.push(`o.payment = $${params.push(ask.payment)}`);
      if (ask.shipping) filters.push(`o.payment = 'paid' AND o.shipping_status = $${params.push(ask.shipping)}`);
      if (ask.from) filters.push(`o.created_at >= $${params.push(`${ask.from}T00:00:00Z`)}::timestamptz`);
      if (ask.to) filters.push(`o.created_at < $${params.push(`${ask.to}T00:00:00Z`)}::timestamptz + interval '1 day'`);
      const [{ total }] = filters.length
        ? await db.query<{ total: number }>(
            `SELECT count(*)::int AS total FROM orders o WHERE ${filters.join(' AND ')}`,
            params,
          )
        : await db.query<{ total: number }>(
            `SELECT coalesce(sum(n), 0)::int AS total FROM row_counts WHERE name = 'orders'`,
          );
      const byTotal = ask.sort === 'total-desc' || ask.sort === 'total-asc';
      const down = ask.sort === 'newest' || ask.sort === 'total-desc';
      const cmp = down ? '<' : '>';
      const dir = down ? 'DESC' : 'ASC';
      const where = [...filters];
      if (after !== undefined) {
        if (byTotal && Array.isArray(after))
          where.push(`(o.total_cents, o.seq) ${cmp} ($${params.push(after[0])}::bigint, $${params.push(after[1])})`);
        else if (!byTotal && typeof after === 'number') where.push(`o.seq ${cmp} $${params.push(after)}`);
        else throw invalid('cursor is not valid', { cursor: 'cursor is not valid' });
      }
      const order = byTotal ? `o.total_cents ${dir}, o.seq ${dir}` : `o.seq ${dir}`;
      const rows = await db.query<OrderRow & { seq: number }>(
        `${ORDER_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT $${params.push(ask.limit + 1)}`,
        params,
      );
      return listPage(
        rows,
        ask.limit,
        total,
        (r): OrderCursor => (byTotal ? [String(r.total_cents), r.seq] : r.seq),
        orderJson,
      );
    },

    /** The buyer's unpaid orders (orders_unpaid_buyer_idx; at most MAX_UNPAID_ORDERS of them). */
    async unpaidOf(email: string, buyerUid: string): Promise<string[]> {
      const unpaid = await db.query<{ id: string }>(
        `SELECT id FROM orders WHERE email = $1 AND buyer_uid = $2 AND payment = 'unpaid' ORDER BY id`,
        [email, buyerUid],
      );
      return unpaid.map((r) => r.id);
    },

    /**
     * The buyer's orders as My Orders lists them (newest first), `size` at a time, each page one range
     * of orders_buyer_idx: an export of 10,000 orders never holds more than one page.
     */
    async *pagesOf(email: string, buyerUid: string, size: number): AsyncGenerator<Order[]> {
      let after: number | null = null;
      for (;;) {
        const rows: (OrderRow & { seq: number })[] = await db.query<OrderRow & { seq: number }>(
          `${ORDER_SELECT} WHERE o.email = $1 AND o.buyer_uid = $2${after === null ? '' : ' AND o.seq < $4'}
           ORDER BY o.seq DESC LIMIT $3`,
          after === null ? [email, buyerUid, size] : [email, buyerUid, size, after],
        );
        if (rows.length) yield rows.map(orderJson);
        if (rows.length < size) return;
        after = rows[rows.length - 1].seq;
      }
    },
  };
}
