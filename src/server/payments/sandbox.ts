import type { Db } from '../db/client.ts';
import { sandboxLedger } from './payments.service.ts';
import type { IntentStatus, PaymentGateway } from '../ports.ts';

/** Offline payments: intents live in our database; /api/sandbox/confirm plays the card network. */
export function sandboxGateway(db: Db): PaymentGateway {
  const ledger = sandboxLedger(db);
  async function retrieve(intentId: string): Promise<IntentStatus | undefined> {
    const row = await ledger.find(intentId);
    if (!row) return undefined;
    // A refunded intent did succeed (the money moved, then came back), as Stripe reports it.
    return { ...row, status: row.status === 'refunded' ? 'succeeded' : row.status };
  }

  return {
    kind: 'sandbox',
    createIntent: ({ orderId, amountCents }) => ledger.insert(orderId, amountCents),
    retrieve,
    async cancel(intentId) {
      await ledger.cancel(intentId);
      return (await retrieve(intentId))?.status ?? 'canceled';
    },
    // The sandbox moves no money: a part refund of a succeeded intent is its key, recorded by the caller.
    async refundPart(intentId, _amountCents, key) {
      const row = await ledger.find(intentId);
      if (!row || (row.status !== 'succeeded' && row.status !== 'refunded'))
        throw new Error(`sandbox intent ${intentId} has no succeeded payment to refund`);
      return { id: `re_sandbox_${key}` };
    },
    async refund(intentId) {
      const id = await ledger.refund(intentId);
      if (!id) throw new Error(`sandbox intent ${intentId} has no succeeded payment to refund`);
      return { id };
    },
  };
}
