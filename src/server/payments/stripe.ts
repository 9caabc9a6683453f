import Stripe from 'stripe';
import type { PaymentGateway } from './gateway';

export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    ...(base && { host: base.hostname, port: Number(base.port), protocol: base.protocol.replace(':', '') as 'http' | 'https' }),
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
      await stripe.paymentIntents.cancel(intentId);
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
