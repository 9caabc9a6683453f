import { messages } from '../../lib/messages.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import { emitOrderEvent, factsOf } from './order-events.ts';
import type { Gather } from '../db/batched.ts';
import type { Db, Queryable } from '../db/client.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { type ToolsService } from '../tools/tools.service.ts';
import { releaseUse } from '../discounts/discounts.service.ts';
import { isBuyer } from '../users/user-rules.ts';
import type { CurrentUser } from '../types.ts';
import { metrics } from '../observability/metrics.ts';
import type { OrdersContext } from './context.ts';
import { orderReads } from './order-reads.ts';
import { readOrder, readOrderToRemove, type OrderRow } from './order-rows.ts';
import {
  anonymiseOrders,
  cancelUnpaid,
  deleteOrder,
  deleteOrdersAndUnrefunded,
  heldLinesOf,
  lockUnpaidOrders,
  lockUnpaidOrdersOf,
  selectOrders,
  setPaid,
} from './orders.sql.ts';
import { orderPlacing } from './placing.ts';

/** What marking an order paid came to: 'ok' (now or before, with this payment), or why not. */
export type PaidOutcome = 'ok' | 'missing' | 'cancelled' | 'other' | 'amount';

export function ordersService(
  db: Db,
  tools: ToolsService,
  holdMs: number,
  now: () => Date,
  options: {
    /** Unpaid orders one buyer may hold at once. */
    maxUnpaidOrders?: number;
    /** Issues the invoice in the payment's transaction. */
    invoices?: InvoicesService;
    /** LOW_STOCK_UNITS (undefined: each tool's minimum order × 2). */
    lowStockUnits?: number;
    /** Called after a transaction that wrote events commits (the outbox delivers them at once). */
    eventsWritten?: () => void;
    /** When a batch of one-line orders waits for the rest of a burst. */
    gather?: Gather;
  } = {},
) {
  const { maxUnpaidOrders = Infinity, invoices, lowStockUnits, eventsWritten = () => {}, gather } = options;
  const ctx: OrdersContext = {
    db,
    tools,
    holdMs,
    now,
    maxUnpaidOrders,
    invoices,
    lowStockUnits,
    eventsWritten,
    gather,
  };
  const { placeOnce, expiredHoldsOn, rehearse } = orderPlacing(ctx);

  /**
   * Cancels one unpaid order whose hold ran out and gives its units back, with its event, in one
   * transaction; false when it is no longer unpaid. The checkout flow closes its payments first.
   */
  async function cancelExpired(id: string): Promise<boolean> {
    const cancelled = await db.transaction(async (tx) => {
      if (!(await cancelUnpaid(tx, id, messages.holdExpired))) return false;
      const order = (await getRow(tx, id))!;
      await giveBackLines(tx, order, null);
      await releaseUse(tx, id);
      await emitOrderEvent(tx, 'order.cancelled', id, null, factsOf(order), { reason: 'hold expired' });
      return true;
    });
    if (cancelled) metrics.orderCancelled();
    return cancelled;
  }

  /**
   * Marks an order paid with the provider's intent id, only for the exact amount owed.
   * Idempotent: the same intent again is 'ok'; a different one on a paid order is 'other'.
   */
  async function markPaid(id: string, intentId: string, amountCents: number): Promise<PaidOutcome> {
    return db
      .transaction(async (tx) => {
        const order = await getRow(tx, id, true);
        if (!order) return 'missing';
        if (order.payment === 'paid') return order.transaction_id === intentId ? 'ok' : 'other';
        if (order.payment === 'cancelled') return 'cancelled';
        if (Number(order.total_cents) !== amountCents) return 'amount';
        await setPaid(tx, id, intentId);
        // The invoice's number is taken here: a payment rolled back gives it back, so numbers have no gaps.
        const facts = factsOf(order);
        const invoiceNumber = invoices
          ? await invoices.issue(tx, {
              kind: 'invoice',
              orderId: id,
              buyer: { name: facts.buyerName, email: facts.email, address: facts.address },
              lines: facts.lines,
              totalCents: facts.totalCents,
              breakdown: facts.breakdown,
              paymentReference: intentId,
              at: now(),
            })
          : null;
        await emitOrderEvent(tx, 'order.paid', id, facts.email, facts, { transactionId: intentId, invoiceNumber });
        return 'newly paid' as const;
      })
      .then((outcome) => {
        if (outcome !== 'newly paid') return outcome;
        metrics.orderPaid();
        eventsWritten();
        return 'ok';
      });
  }

  /** The tools an order holds units of (a deleted tool's line has none). */
  const heldTools = (order: OrderRow): string[] =>
    (order.items ?? []).flatMap((item) => (item.toolId ? [item.toolId] : []));

  /**
   * An unpaid order's units back to stock (`order` as read under its lock); `actor`: who let it go (null:
   * its hold ran out). Its statements are sent before the returned promise first waits.
   */
  const giveBackLines = (tx: Queryable, order: OrderRow, actor: string | null): Promise<void> =>
    tools.giveBackOrder(tx, order.id, heldTools(order), actor);

  const getRow = readOrder;

  return {
    ...orderReads(db, now),
    getRow: (id: string) => getRow(db, id),
    placeOnce,
    rehearse,
    expiredHoldsOn,
    cancelExpired,

    /** After holds were let go: the stock changed, and events wait for the outbox. */
    released() {
      tools.invalidate();
      eventsWritten();
    },

    /**
     * Deletes an unpaid (or cancelled) order; an unpaid one gives its units back. A paid order is never
     * deleted, by its buyer or an admin (409): it stays in the shop's books. An unpaid order's payments
     * are closed at the provider first (checkout.flow.ts remove): with `unlessPaymentOpen`, an unpaid
     * order with a payment still open is left as it is ('payment open').
     */
    async remove(
      user: CurrentUser,
      id: string,
      { unlessPaymentOpen = false }: { unlessPaymentOpen?: boolean } = {},
    ): Promise<'removed' | 'payment open'> {
      let touched: string[] = [];
      const outcome = await db.transaction(async (tx) => {
        touched = [];
        const order = await readOrderToRemove(tx, id);
        if (!order) return 'missing';
        const isAdmin = user.role === 'admin';
        if (!isAdmin && !isBuyer(user, order)) return 'forbidden';
        // A sale is a record: not the buyer, not an admin, nobody erases it (a refund cancels it).
        if (order.payment === 'paid') return 'paid';
        if (unlessPaymentOpen && order.payment === 'unpaid' && order.open_payment) return 'payment open';
        // Sent together, and run in this order: the lines' units back first (deleting the order deletes them).
        const unpaid = order.payment === 'unpaid';
        if (unpaid) touched = heldTools(order);
        tx.last?.();
        await Promise.all([
          unpaid ? giveBackLines(tx, order, user.email) : null,
          unpaid ? emitOrderEvent(tx, 'order.cancelled', id, user.email, factsOf(order), { reason: 'deleted' }) : null,
          deleteOrder(tx, id),
        ]);
        return 'ok';
      });
      if (outcome === 'missing') throw notFound('Order');
      if (outcome === 'forbidden') throw forbidden();
      if (outcome === 'paid') throw conflict(messages.paidOrderKept);
      if (outcome === 'payment open') return outcome;
      if (touched.length) tools.invalidate('stock', touched);
      eventsWritten();
      return 'removed';
    },

    /**
     * Inside an account deletion's transaction, under the buyer's lock (placing takes it too, so no
     * order appears meanwhile): the buyer's unpaid orders give their units back and go, with the
     * cancelled ones nobody paid for. Every order that stays (paid, or cancelled and refunded) keeps its
     * lines and money for the shop's books, but not the buyer's name, address or phone. Set-based, so
     * a buyer with 10,000 orders costs a few statements. 'changed': an unpaid order that
     * the checkout flow's closeBuyerPayments did not see (placed since); nothing is changed then.
     */
    async forgetBuyer(tx: Queryable, email: string, buyerUid: string, ready: Set<string>): Promise<'ok' | 'changed'> {
      await lockUnpaidOrdersOf(tx, email);
      const unpaid = await lockUnpaidOrders(tx, email, buyerUid);
      if (unpaid.some((o) => !ready.has(o.id))) return 'changed';
      const ids = unpaid.map((o) => o.id);
      if (ids.length) {
        for (const line of await heldLinesOf(tx, ids))
          await tools.giveBack(tx, line.tool_id, line.quantity, line.stock_version, null, email);
        for (const order of await selectOrders(tx, ids))
          await emitOrderEvent(tx, 'order.cancelled', order.id, email, factsOf(order), { reason: 'account deleted' });
      }
      await deleteOrdersAndUnrefunded(tx, ids, email, buyerUid);
      await anonymiseOrders(tx, email, buyerUid, messages.deletedCustomer);
      return 'ok';
    },

    markPaid,
  };
}
export type OrdersService = ReturnType<typeof ordersService>;
