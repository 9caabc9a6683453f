// The payments table's statements (payment-reads.ts holds the fragments the orders read). payments.service.ts
// owns the rules around them: when to reuse an intent, cancel, record a success or refund.
import type { Queryable } from '../db/client.ts';
import type { PaymentGateway } from '../ports.ts';
import { PAYMENT_OPEN } from './payment-reads.ts';

type Gateway = PaymentGateway['kind'];

/** The newest intent of an order for this amount at this provider that can still be paid (or was). */
export const selectReusableIntent = async (db: Queryable, orderId: string, amountCents: number, gateway: Gateway) =>
  (
    await db.query<{ client_secret: string }>(
      `SELECT client_secret FROM payments WHERE order_id = $1 AND amount_cents = $2 AND gateway = $3
         AND status NOT IN ('canceled', 'refunded') ORDER BY created_at DESC LIMIT 1`,
      [orderId, amountCents, gateway],
    )
  )[0] as { client_secret: string } | undefined;

/** A new intent's row; the same Stripe intent recorded twice (a retried request) is kept once. */
export const insertIntent = (
  db: Queryable,
  gateway: 'stripe' | 'sandbox',
  intent: { id: string; orderId: string; amountCents: number; clientSecret: string },
) =>
  db.query(
    `INSERT INTO payments (id, order_id, gateway, amount_cents, client_secret) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING`,
    [intent.id, intent.orderId, gateway, intent.amountCents, intent.clientSecret],
  );

export const selectSandboxBySecret = async (db: Queryable, clientSecret: string) =>
  (
    await db.query<{ id: string; order_id: string; status: string }>(
      `SELECT id, order_id, status FROM payments WHERE client_secret = $1 AND gateway = 'sandbox'`,
      [clientSecret],
    )
  )[0] as { id: string; order_id: string; status: string } | undefined;

/** The card's outcome, unless the payment was cancelled or refunded meanwhile (then no row comes back). */
export const setChargeOutcome = (db: Queryable, id: string, status: string, lastError: string | null) =>
  db.query<{ id: string }>(
    `UPDATE payments SET status = $2, last_error = $3 WHERE id = $1 AND status NOT IN ('canceled', 'refunded') RETURNING id`,
    [id, status, lastError],
  );

/** An order's payments at this provider that are neither cancelled nor refunded. */
export const selectOpenPayments = (db: Queryable, orderId: string, gateway: Gateway) =>
  db.query<{ id: string; amount_cents: number }>(
    `SELECT id, amount_cents FROM payments WHERE order_id = $1 AND gateway = $2 AND ${PAYMENT_OPEN}`,
    [orderId, gateway],
  );

/** A refund stands: a success reported after it does not undo it. */
export const markSucceeded = (db: Queryable, id: string) =>
  db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1 AND status <> 'refunded'`, [id]);

/** A success or a refund stands: a cancel reported after it does not undo it. */
export const markCanceled = (db: Queryable, id: string) =>
  db.query(`UPDATE payments SET status = 'canceled' WHERE id = $1 AND status NOT IN ('succeeded', 'refunded')`, [id]);

export const selectStatus = async (db: Queryable, id: string) =>
  (await db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [id]))[0] as
    { status: string } | undefined;

/** Records a refund (adding the payment's row when it has none); refunded twice, the first refund stays. */
export const recordRefund = (
  db: Queryable,
  payment: { id: string; orderId: string; gateway: Gateway; amountCents: number; refundId: string },
) =>
  db.query(
    `INSERT INTO payments (id, order_id, gateway, amount_cents, client_secret, status, refund_id, refunded_at)
     VALUES ($1, $2, $3, $4, '', 'refunded', $5, now())
     ON CONFLICT (id) DO UPDATE SET status = 'refunded', refund_id = coalesce(payments.refund_id, EXCLUDED.refund_id),
       refunded_at = coalesce(payments.refunded_at, EXCLUDED.refunded_at)`,
    [payment.id, payment.orderId, payment.gateway, payment.amountCents, payment.refundId],
  );

// The sandbox gateway's intents (sandboxLedger).

export const selectSandboxIntent = async (db: Queryable, id: string) =>
  (
    await db.query<{ id: string; status: string; amount_cents: number; order_id: string }>(
      `SELECT id, status, amount_cents, order_id FROM payments WHERE id = $1 AND gateway = 'sandbox'`,
      [id],
    )
  )[0] as { id: string; status: string; amount_cents: number; order_id: string } | undefined;

/** Conditional, like the card network: an intent that succeeded first stays succeeded. */
export const cancelSandboxIntent = (db: Queryable, id: string) =>
  db.query(
    `UPDATE payments SET status = 'canceled' WHERE id = $1 AND gateway = 'sandbox' AND status NOT IN ('succeeded', 'refunded')`,
    [id],
  );

/** Only a succeeded intent; refunded twice, the first refund's id and time stay. */
export const refundSandboxIntent = async (db: Queryable, id: string, refundId: string) =>
  (
    await db.query<{ refund_id: string }>(
      `UPDATE payments SET status = 'refunded', refund_id = coalesce(refund_id, $2), refunded_at = coalesce(refunded_at, now())
       WHERE id = $1 AND gateway = 'sandbox' AND status IN ('succeeded', 'refunded') RETURNING refund_id`,
      [id, refundId],
    )
  )[0] as { refund_id: string } | undefined;
