import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import type { PaymentGateway } from './gateway';

/** Offline payments: intents live in our database; /api/sandbox/confirm plays the card network. */
export function sandboxGateway(db: Db): PaymentGateway {
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
    async retrieve(intentId) {
      const [row] = await db.query<{ id: string; status: string; amount_cents: number; order_id: string }>(
        `SELECT id, status, amount_cents, order_id FROM payments WHERE id = $1 AND gateway = 'sandbox'`,
        [intentId],
      );
      return row && { id: row.id, status: row.status, amountCents: row.amount_cents, orderId: row.order_id };
    },
  };
}
