import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { IntentStatus, PaymentGateway } from './gateway.ts';

/** Offline payments: intents live in our database; /api/sandbox/confirm plays the card network. */
export function sandboxGateway(db: Db): PaymentGateway {
  async function retrieve(intentId: string): Promise<IntentStatus | undefined> {
    const [row] = await db.query<{ id: string; status: string; amount_cents: number; order_id: string }>(
      `SELECT id, status, amount_cents, order_id FROM payments WHERE id = $1 AND gateway = 'sandbox'`,
      [intentId],
    );
    if (!row) return undefined;
    // A refunded intent did succeed (the money moved, then came back), as Stripe reports it.
    const status = row.status === 'refunded' ? 'succeeded' : row.status;
    return { id: row.id, status, amountCents: row.amount_cents, orderId: row.order_id };
  }

  return {
    kind: 'sandbox',
    async createIntent({ orderId, amountCents }) {
      const id = `pi_sandbox_${randomBytes(12).toString('hex')}`;
      const clientSecret = `${id}_secret_${randomBytes(12).toString('hex')}`;
      await db.query(
        `INSERT INTO payments (id, order_id, gateway, amount_cents, client_secret) VALUES ($1, $2, 'sandbox', $3, $4)`,
        [id, orderId, amountCents, clientSecret],
      );
      return { id, clientSecret };
    },
    retrieve,
    async cancel(intentId) {
      // Conditional, like the card network: an intent that succeeded first stays succeeded.
      await db.query(
        `UPDATE payments SET status = 'canceled' WHERE id = $1 AND gateway = 'sandbox' AND status NOT IN ('succeeded', 'refunded')`,
        [intentId],
      );
      return (await retrieve(intentId))?.status ?? 'canceled';
    },
    async refund(intentId) {
      const [row] = await db.query<{ refund_id: string }>(
        `UPDATE payments SET status = 'refunded', refund_id = coalesce(refund_id, $2), refunded_at = coalesce(refunded_at, now())
         WHERE id = $1 AND gateway = 'sandbox' AND status IN ('succeeded', 'refunded') RETURNING refund_id`,
        [intentId, `re_sandbox_${randomBytes(12).toString('hex')}`],
      );
      if (!row) throw new Error(`sandbox intent ${intentId} has no succeeded payment to refund`);
      return { id: row.refund_id };
    },
  };
}
