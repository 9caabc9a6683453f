import Stripe from 'stripe';
import type { PaymentGateway } from '../ports.ts';

export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    ...(base && {
      host: base.hostname,
      port: Number(base.port),
      protocol: base.protocol.replace(':', '') as 'http' | 'https',
    }),
  });
}

export function stripeGateway(stripe: Stripe): PaymentGateway {
  return {
    kind: 'stripe',
    async createIntent({ orderId, amountCents, email }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: 'usd',
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          receipt_email: email,
          metadata: { orderId },
        },
        // One intent per order and amount, however often the payment page is opened.
        { idempotencyKey: `order-${orderId}-${amountCents}` },
      );
      return { id: intent.id, clientSecret: intent.client_secret! };
    },
    async cancel(intentId) {
      try {
        return (await stripe.paymentIntents.cancel(intentId)).status;
      } catch (error) {
        // Already succeeded (or cancelled): Stripe refuses; what counts is the state it is in.
        if ((error as { code?: string }).code !== 'payment_intent_unexpected_state') throw error;
        return (await stripe.paymentIntents.retrieve(intentId)).status;
      }
    },
    async refund(intentId) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: intentId },
          { idempotencyKey: `refund-${intentId}` },
        );
        return { id: refund.id };
      } catch (error) {
        if ((error as { code?: string }).code !== 'charge_already_refunded') throw error;
        const [earlier] = (await stripe.refunds.list({ payment_intent: intentId, limit: 1 })).data;
        return { id: earlier.id };
      }
    },
    async refundPart(intentId, amountCents, key) {
      const refund = await stripe.refunds.create(
        { payment_intent: intentId, amount: amountCents },
        { idempotencyKey: `admin-refund-${key}` },
      );
      return { id: refund.id };
    },
    async retrieve(intentId) {
      try {
        const intent = await stripe.paymentIntents.retrieve(intentId);
        return { id: intent.id, status: intent.status, amountCents: intent.amount, orderId: intent.metadata?.orderId };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return undefined;
        throw error;
      }
    },
  };
}
