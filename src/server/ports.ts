// The interfaces the runtime's adapters implement, in one place: the features depend on these, and
// runtime.ts picks an implementation for each (a provider when configured, a local one otherwise).

// Payments: Stripe when keys are set (payments/stripe.ts), an offline sandbox otherwise (payments/sandbox.ts).
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

// Email: an SMTP server (emails/emails.service.ts, smtpMailer), or none (messages kept in the outbox).
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** Where mail goes: an SMTP server, or nowhere (kept). */
export interface Mailer {
  send(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    attachments: MailAttachment[];
  }): Promise<void>;
}

// Product images: on disk, in the database, or on the image host (images/storage.ts).
export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/** What a local storage serves: an upload as sent, or one of its variants. */
export interface StoredImage {
  bytes: Buffer;
  type: string;
}

export interface ImageStorage {
  /** Stores the image (and, locally, its variants) and returns the URL to show it at. */
  save(bytes: Uint8Array, type: ImageType): Promise<string>;
  /** Reads a locally stored image or variant (disk and database storages only). */
  read?(name: string): Promise<StoredImage | undefined>;
}

// Rate-limit counters (http/rate-limit.ts): in memory, or in PostgreSQL (db/rate-limit-store.ts).
export interface RateLimitStore {
  /** Counts one hit for key in a window of windowMs; returns the hits so far and when the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
}
