// Paying an order: the intent, the card (the sandbox's network, or Stripe in the browser), the payment.
import { z } from 'zod';
import { idSchema, numeric } from '../schemas.ts';
import { post, put, refusal } from './route.ts';
import { changed } from './shared.ts';

const noOrder = refusal('No such order');
const notBuyer = refusal('Only the buyer can pay for this order');

export const paymentsContract = {
  intent: post('/create-payment-intent', "Start paying an order: the card provider's intent", {
    description:
      "The amount is the order's total, computed on the server: the spec's `price` (total x 100) is accepted and not used.",
    body: {
      schema: z.object({
        orderId: idSchema,
        price: z.unknown().optional().describe("The spec's client sends its own total (x 100); it is never used."),
      }),
    },
    responses: {
      200: {
        description: 'The intent',
        schema: z.strictObject({
          clientSecret: z.string(),
          amountCents: z.number().int(),
          gateway: z.enum(['sandbox', 'stripe']),
          publishableKey: z.string().nullable().describe("Stripe's publishable key (null in the sandbox)."),
        }),
      },
      403: notBuyer,
      404: noOrder,
      409: refusal('Paid already, or cancelled'),
      422: refusal('A total the card provider cannot take'),
    },
  }),
  pay: put('/booking/makepayment/{id}', 'Mark an order paid', {
    description:
      'Only when the card provider confirms that this intent succeeded, for this order and amount; idempotent. A payment for an order cancelled meanwhile is refunded (409).',
    body: {
      schema: z.object({
        appointment: z.string().optional().describe("The spec's field (the order id again); not read."),
        transactionId: z.string().trim().min(1).max(255).describe("The intent's id."),
      }),
    },
    responses: {
      200: changed('Paid'),
      402: refusal('The payment has not succeeded'),
      403: notBuyer,
      404: noOrder,
      409: refusal('Cancelled meanwhile (refunded), paid with another payment, or another amount'),
    },
  }),
  sandboxConfirm: post('/sandbox/confirm', "The sandbox's card network: confirm an intent with a test card", {
    description:
      "Only without Stripe. Stripe's test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined …",
    body: {
      schema: z.object({
        clientSecret: z.string().min(1).max(255),
        card: z.object({
          number: z.string().max(32),
          expMonth: numeric(z.number().int()),
          expYear: numeric(z.number().int()),
          cvc: z.string().max(8),
          postalCode: z.string().max(16).optional(),
        }),
      }),
    },
    responses: {
      200: {
        description: 'Succeeded',
        schema: z.strictObject({ paymentIntent: z.strictObject({ id: z.string(), status: z.literal('succeeded') }) }),
      },
      402: refusal("Declined: the card's problem, in Stripe's words"),
      403: notBuyer,
      404: refusal('No such payment'),
      409: refusal('The order or payment was cancelled'),
    },
  }),
  stripeWebhook: post('/webhooks/stripe', "Stripe's events (payment_intent.succeeded)", {
    description:
      'Only with Stripe. Marks orders paid even when the buyer closed the tab before paying; a failure answers 503 so Stripe sends the event again.',
    body: { schema: z.looseObject({ type: z.string() }).describe('A Stripe event'), type: 'application/json' },
    responses: { 200: { description: 'Received', schema: z.strictObject({ received: z.literal(true) }) } },
  }),
};
