// One interface, two providers: Stripe when keys are set, an offline sandbox otherwise.
export interface IntentRequest {
  orderId: string;
  amountCents: number;
  email: string;
}
export interface Intent {
  id: string;
  clientSecret: string;
}
export interface IntentStatus {
  id: string;
  status: string;
  amountCents: number;
  orderId: string | undefined;
}
export interface PaymentGateway {
  readonly kind: 'sandbox' | 'stripe';
  createIntent(request: IntentRequest): Promise<Intent>;
  /** What the provider says about an intent; undefined when it does not know it. */
  retrieve(intentId: string): Promise<IntentStatus | undefined>;
  /**
   * Makes an open intent unpayable before its order is let go. Returns the intent's status afterwards:
   * 'canceled', or 'succeeded' when the card went through first (then the order is paid, not let go).
   */
  cancel(intentId: string): Promise<string>;
  /** Gives a succeeded intent's money back in full (its order was cancelled or deleted); idempotent. */
  refund(intentId: string): Promise<{ id: string }>;
  /**
   * An admin's refund of a paid order: `amountCents` of a succeeded intent back to the card. `key` names
   * this refund: asked again with the same key (a retry after a crash), the provider makes no second one.
   */
  refundPart(intentId: string, amountCents: number, key: string): Promise<{ id: string }>;
}
