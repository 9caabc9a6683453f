// An admin's refund of a paid order (issue 25): all of what is left by default, or part of it; with
// `restock`, the order's units go back to the stock, once per order. Exactly once, in three steps:
//  1. in a transaction under the order's lock, the refund is written 'pending' (a second refund asked
//     meanwhile finds it and is refused with 409, or finds nothing left to refund);
//  2. the provider is asked, with the refund's id as its idempotency key;
//  3. in a transaction, the refund is done: the order's refunded amount, the restock, the credit note
//     (numbered with no gaps) and the 'order.refunded' event (the buyer's email) are written together.
// A provider that refuses marks the refund failed (nothing else changed). A process that stops between
// 2 and 3 leaves a pending refund; the next refund asked after REFUND_STALE_MS takes it up again with
// the same key, so the provider makes no second refund.
import { emitOrderEvent, factsOf, type OrderFacts } from './order-events.ts';
import { formatCents, toCents } from '../../lib/money.ts';
import { messages } from '../../lib/messages.ts';
import type { RefundInput } from '../../lib/schemas.ts';
import type { Db } from '../db/client.ts';
import { conflict, notFound, notPossible, upstreamFailed } from '../errors.ts';
import { newId } from '../db/ids.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import { logger } from '../observability/logger.ts';
import type { ToolsService } from '../tools/tools.service.ts';
import type { PaymentGateway } from '../ports.ts';
import {
  insertRefund,
  lockForRefund,
  markRefundDone,
  markRefundFailed,
  selectPendingRefund,
  setRefunded,
  type PendingRefund,
} from './refunds.sql.ts';

/** A pending refund older than this was left by a process that stopped: the next ask takes it up. */
const REFUND_STALE_MS = 2 * 60_000;

export interface RefundDone {
  id: string;
  amountCents: number;
  creditNote: string;
  restocked: boolean;
  /** The whole payment is given back now. */
  full: boolean;
}

export function refundsService(
  db: Db,
  deps: {
    gateway: PaymentGateway;
    tools: ToolsService;
    invoices: InvoicesService;
    now: () => Date;
    eventsWritten: () => void;
  },
) {
  /** Step 1: the refund as asked, written pending; or the stale pending one to take up again. */
  async function begin(orderId: string, by: string, ask: RefundInput): Promise<PendingRefund> {
    return db.transaction(async (tx) => {
      const order = await lockForRefund(tx, orderId);
      if (!order) throw notFound('Order');
      if (order.payment !== 'paid' || !order.transaction_id) throw conflict(messages.refundUnpaid);
      const pending = await selectPendingRefund(tx, orderId);
      if (pending) {
        if (deps.now().getTime() - new Date(pending.created_at).getTime() < REFUND_STALE_MS)
          throw conflict(messages.refundUnderWay);
        logger.warn({ orderId, refundId: pending.id }, 'taking up a refund a stopped process left pending');
        return pending;
      }
      const left = Number(order.total_cents) - Number(order.refunded_cents);
      if (left <= 0) throw conflict(messages.refundedAlready);
      const amountCents = ask.amount === undefined ? left : toCents(ask.amount);
      if (amountCents > left)
        throw notPossible(messages.refundTooMuch(formatCents(left)), {
          amount: messages.refundTooMuch(formatCents(left)),
        });
      const refund: PendingRefund = {
        id: newId(),
        payment_id: order.transaction_id,
        amount_cents: amountCents,
        restock: ask.restock,
      };
      await insertRefund(tx, refund, orderId, by, deps.now());
      return refund;
    });
  }

  /** Step 3: the refund is done, with everything that follows from it, in one transaction. */
  async function finish(
    orderId: string,
    by: string,
    refund: PendingRefund,
    providerRefundId: string,
  ): Promise<RefundDone> {
    const amountCents = Number(refund.amount_cents);
    return db.transaction(async (tx) => {
      const order = (await lockForRefund(tx, orderId))!;
      const facts: OrderFacts = factsOf(order);
      const restock = refund.restock && !order.restocked;
      if (restock)
        for (const line of order.items ?? []) await deps.tools.returnUnits(tx, line.toolId, line.quantity, orderId, by);
      const refundedCents = Number(order.refunded_cents) + amountCents;
      await setRefunded(tx, orderId, refundedCents, restock);
      const full = refundedCents >= Number(order.total_cents);
      const [invoice] = (await deps.invoices.forOrder(tx, orderId)).filter((d) => d.kind === 'invoice');
      const creditNote = await deps.invoices.issue(tx, {
        kind: 'credit note',
        correcting: invoice?.number,
        orderId,
        buyer: { name: facts.buyerName, email: facts.email, address: facts.address },
        // A whole refund credits the lines; a part of one is one line of its amount.
        lines:
          full && refundedCents === amountCents
            ? facts.lines
            : [
                {
                  productName: `Partial refund of order ${orderId.slice(-8).toUpperCase()}`,
                  quantity: 1,
                  unitCents: amountCents,
                },
              ],
        totalCents: amountCents,
        // The whole order credited: its delivery and VAT too, as its invoice showed them.
        ...(full && refundedCents === amountCents ? { breakdown: facts.breakdown } : {}),
        paymentReference: providerRefundId,
        at: deps.now(),
      });
      await markRefundDone(tx, refund.id, providerRefundId, creditNote);
      await emitOrderEvent(tx, 'order.refunded', orderId, by, facts, {
        amountCents,
        creditNoteNumber: creditNote,
        full,
        restocked: restock,
        // What the audit log shows (Activity).
        target: `Order ${orderId.slice(-8).toUpperCase()} of ${order.email}`,
        before: { refunded: formatCents(Number(order.refunded_cents)) },
        after: { refunded: formatCents(refundedCents), ...(restock ? { restocked: true } : {}) },
      });
      return { id: refund.id, amountCents, creditNote, restocked: restock, full };
    });
  }

  return {
    async refund(orderId: string, by: string, ask: RefundInput): Promise<RefundDone> {
      const refund = await begin(orderId, by, ask);
      let provider: { id: string };
      try {
        provider = await deps.gateway.refundPart(refund.payment_id, Number(refund.amount_cents), refund.id);
      } catch (error) {
        await markRefundFailed(db, refund.id, (error as Error).message.slice(0, 1000));
        logger.warn({ orderId, refundId: refund.id, err: (error as Error).message }, 'the provider refused a refund');
        throw upstreamFailed('refund_failed', messages.refundFailed);
      }
      const done = await finish(orderId, by, refund, provider.id);
      if (done.restocked) deps.tools.invalidate();
      deps.eventsWritten();
      return done;
    },
  };
}
export type RefundsService = ReturnType<typeof refundsService>;
