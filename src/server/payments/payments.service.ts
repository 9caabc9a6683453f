// Payments: the one owner of the `payments` table. Money follows the order: a payment is closed at the
// provider before its order is let go, and a payment that succeeds for an order that was cancelled or
// deleted anyway is refunded and recorded (payments outlive their orders). The providers (sandbox.ts,
// stripe.ts) are adapters of ports.ts's PaymentGateway; the sandbox keeps its intents through `sandboxLedger`.
import { randomBytes } from 'node:crypto';
import type { CardInput } from '../../lib/cards.ts';
import { MAX_ORDER_TOTAL_CENTS } from '../../lib/limits.ts';
import { messages } from '../../lib/messages.ts';
import type { Db } from '../db/client.ts';
import { conflict, notPossible } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { sandboxCardError } from './sandbox-cards.ts';
import {
  cancelSandboxIntent,
  insertIntent,
  markCanceled,
  markSucceeded,
  recordRefund,
  refundSandboxIntent,
  selectOpenPayments,
  selectReusableIntent,
  selectSandboxBySecret,
  selectSandboxIntent,
  selectStatus,
  setChargeOutcome,
} from './payments.sql.ts';
import type { IntentStatus, PaymentGateway } from '../ports.ts';

/** Where an order's payments stand once the open ones were cancelled at the provider. */
export type PaymentsClosed =
  | { state: 'none' }
  /** The card went through before the cancel: the order is paid, not let go. */
  | { state: 'succeeded'; intentId: string; amountCents: number }
  /** The provider could not be reached or the payment is still processing: try again later. */
  | { state: 'unsettled' };

/** The order a payment is for, as the payment needs it. */
interface PayableOrder {
  id: string;
  email: string;
  payment: 'unpaid' | 'paid' | 'cancelled';
  cancel_reason: string | null;
  total_cents: number | string;
}

/** What marking the order paid came to (orders.service's markPaid), as the payment settles. */
export type OrderPaidOutcome = 'ok' | 'missing' | 'cancelled' | 'other' | 'amount';

export function paymentsService(db: Db, gateway: PaymentGateway) {
  return {
    kind: gateway.kind,
    retrieve: (intentId: string) => gateway.retrieve(intentId),

    /**
     * The client secret to pay an unpaid order with. Reopening the payment page reuses the intent instead
     * of piling up new ones, even one that succeeded while makepayment never ran (tab closed): a new
     * intent would charge the card twice.
     */
    async intentFor(order: PayableOrder): Promise<{ clientSecret: string; amountCents: number }> {
      if (order.payment === 'paid') throw conflict('This order is already paid');
      if (order.payment === 'cancelled') throw conflict(order.cancel_reason ?? 'This order was cancelled');
      const amountCents = Number(order.total_cents);
      // Orders placed before the cap: refused here rather than overflowing the payment's amount.
      if (amountCents > MAX_ORDER_TOTAL_CENTS) throw notPossible(messages.orderTotalTooHigh);
      const open = await selectReusableIntent(db, order.id, amountCents, gateway.kind);
      if (open) return { clientSecret: open.client_secret, amountCents };
      const intent = await gateway.createIntent({ orderId: order.id, amountCents, email: order.email });
      if (gateway.kind === 'stripe') {
        await insertIntent(db, 'stripe', {
          id: intent.id,
          orderId: order.id,
          amountCents,
          clientSecret: intent.clientSecret,
        });
      }
      return { clientSecret: intent.clientSecret, amountCents };
    },

    /** The sandbox's intent for a client secret (the card form sends it). */
    async sandboxIntent(clientSecret: string): Promise<{ id: string; orderId: string; status: string } | undefined> {
      const row = await selectSandboxBySecret(db, clientSecret);
      return row && { id: row.id, orderId: row.order_id, status: row.status };
    },

    /**
     * The sandbox's card network charges a card: 'cancelled' when the payment was cancelled meanwhile
     * (the order expired or was deleted: never charged), else null or Stripe's decline message.
     */
    async chargeSandbox(
      intentId: string,
      card: CardInput,
      now: Date,
    ): Promise<{ declined: string | null } | 'cancelled'> {
      const declined = sandboxCardError(card, now);
      const charged = await setChargeOutcome(
        db,
        intentId,
        declined ? 'requires_payment_method' : 'succeeded',
        declined,
      );
      return charged.length ? { declined } : 'cancelled';
    },

    /**
     * Cancels an order's open payments at the provider, before the order is cancelled or deleted. A
     * payment that succeeded first is reported (the order is then paid instead); a provider that cannot
     * be reached or a payment still processing leaves the order as it is, for the next try.
     */
    async closeOpen(orderId: string): Promise<PaymentsClosed> {
      const open = await selectOpenPayments(db, orderId, gateway.kind);
      for (const { id, amount_cents } of open) {
        let status: string;
        try {
          status = await gateway.cancel(id);
        } catch (error) {
          logger.warn(
            { orderId, intentId: id, err: (error as Error).message },
            'could not cancel a payment; the order is kept for now',
          );
          return { state: 'unsettled' };
        }
        if (status === 'succeeded') {
          await markSucceeded(db, id);
          return { state: 'succeeded', intentId: id, amountCents: amount_cents };
        }
        if (status !== 'canceled') return { state: 'unsettled' };
        await markCanceled(db, id);
      }
      return { state: 'none' };
    },

    /**
     * A payment the provider says succeeded, once the checkout flow has tried to mark its order paid
     * (`outcome`): recorded as succeeded, or refunded in full when the order was cancelled, or deleted
     * before being paid. Idempotent (makepayment and Stripe's webhook both settle, Stripe retries).
     * Throws when the provider cannot refund now, so the webhook is delivered again.
     */
    async settle(
      intent: IntentStatus & { orderId: string },
      outcome: OrderPaidOutcome,
    ): Promise<OrderPaidOutcome | 'refunded'> {
      const row = await selectStatus(db, intent.id);
      if (outcome === 'ok') {
        await markSucceeded(db, intent.id);
        return outcome;
      }
      if (row?.status === 'refunded') return 'refunded';
      // A missing order whose payment we already recorded as succeeded was paid, then deleted by an admin.
      const refundable = outcome === 'cancelled' || (outcome === 'missing' && row?.status !== 'succeeded');
      if (!refundable) return outcome;
      const refund = await gateway.refund(intent.id);
      await recordRefund(db, {
        id: intent.id,
        orderId: intent.orderId,
        gateway: gateway.kind,
        amountCents: intent.amountCents,
        refundId: refund.id,
      });
      logger.warn(
        { orderId: intent.orderId, intentId: intent.id, refundId: refund.id, order: outcome },
        'refunded a payment for an order that was let go',
      );
      return 'refunded';
    },
  };
}
export type PaymentsService = ReturnType<typeof paymentsService>;

/** The sandbox's intents, kept in the payments table (the sandbox gateway's only storage). */
export function sandboxLedger(db: Db) {
  return {
    async insert(orderId: string, amountCents: number): Promise<{ id: string; clientSecret: string }> {
      const id = `pi_sandbox_${randomBytes(12).toString('hex')}`;
      const clientSecret = `${id}_secret_${randomBytes(12).toString('hex')}`;
      await insertIntent(db, 'sandbox', { id, orderId, amountCents, clientSecret });
      return { id, clientSecret };
    },
    async find(
      intentId: string,
    ): Promise<{ id: string; status: string; amountCents: number; orderId: string } | undefined> {
      const row = await selectSandboxIntent(db, intentId);
      return row && { id: row.id, status: row.status, amountCents: row.amount_cents, orderId: row.order_id };
    },
    async cancel(intentId: string): Promise<void> {
      await cancelSandboxIntent(db, intentId);
    },
    /** The refund's id (the first one, when refunded before); undefined when nothing succeeded to refund. */
    async refund(intentId: string): Promise<string | undefined> {
      const row = await refundSandboxIntent(db, intentId, `re_sandbox_${randomBytes(12).toString('hex')}`);
      return row?.refund_id;
    },
  };
}
