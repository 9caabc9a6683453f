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
  /** Makes an open intent unpayable (its order's hold ran out). The sandbox needs none: it checks the order. */
  cancel?(intentId: string): Promise<void>;
}
