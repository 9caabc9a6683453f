// The entities as the API serves them (spec point 3 names), shared by the server's mappers,
// the islands and the tests. Money is dollars here because the spec's JSON says `price`.
import type { WebhookEvent } from './webhooks.ts';

export interface Tool {
  _id: string;
  name: string;
  img: string;
  description: string;
  minimumOrderQuantity: number;
  availableQuantity: number;
  price: number;
  /** Quantity prices (issue 26), ascending: from `minQuantity` units on, `price` dollars each. Empty: one price. */
  priceBreaks: { minQuantity: number; price: number }[];
  /** Quantities are whole packs of this many units (1: any quantity). */
  packSize: number;
  /** Above this many units a buyer asks for a quote instead of ordering (null: never required). */
  quoteAbove: number | null;
}

/** A tool as Manage products lists it (admins): its low-stock level and whether stock is below it. */
export interface AdminTool extends Tool {
  /** The level in effect: the tool's own, else the shop's default. */
  lowStockUnits: number;
  lowStock: boolean;
  /** The tool's own level (null: it follows the shop's default), as Edit product sets it. */
  ownLowStockUnits: number | null;
}

/** One movement of a tool's stock (GET /tools/{id}/ledger); `balance` is the units for sale after it. */
export interface StockMovement {
  id: number;
  toolId: string;
  delta: number;
  reason: StockReason;
  orderId: string | null;
  actor: string | null;
  at: string;
  balance: number;
}
export const STOCK_REASONS = ['sale', 'hold released', 'refund restock', 'admin restock', 'import', 'correction'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

/** A quote's states as the API shows them ('expired' is read: answered, past its expiry). */
export const QUOTE_STATES = ['requested', 'answered', 'accepted', 'declined', 'expired'] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

/** A quote request (issue 26): requested, then answered by the shop, then accepted (an order) or declined. */
export interface Quote {
  _id: string;
  email: string;
  userName: string;
  note: string;
  /** 'expired': answered, and its offer ran out before the buyer accepted. */
  state: QuoteState;
  lines: QuoteLine[];
  /** The quoted total in cents, once answered. */
  totalCents: number | null;
  createdAt: string;
  answeredAt: string | null;
  expiresAt: string | null;
  /** The order placed by accepting it. */
  orderId: string | null;
}
export interface QuoteLine {
  toolId: string | null;
  productName: string;
  quantity: number;
  /** The list (price-break) unit price when asked, in dollars. */
  listPrice: number;
  /** The shop's unit price, in dollars, once answered. */
  price: number | null;
}

/** An order: its amounts as placed (TotalsBreakdown: the one payment asks totalCents) and the rest. */
export interface Order extends TotalsBreakdown {
  _id: string;
  toolId: string | null;
  /** A one-line order's tool name; with several lines, "N tools". */
  productName: string;
  /** A one-line order's unit price in dollars, as placed; with several lines, the order's total. */
  price: number;
  /** Given back by an admin's refunds: the order is refunded when it reaches totalCents, partly refunded below. */
  refundedCents: number;
  /** The order's lines, as placed (the spec's one tool is one line). */
  items: OrderItem[];
  userName: string;
  email: string;
  address: string;
  phone: string;
  /** A one-line order's quantity; with several lines, all units together. */
  quantity: number;
  payment: 'unpaid' | 'paid' | 'cancelled';
  transactionId: string | null;
  /** 'pending' (the spec's label for a paid order not shipped yet), then shipped, then delivered. */
  shippingStatus: 'pending' | 'shipped' | 'delivered';
  /** Given when the order is shipped. */
  shipment: OrderShipment | null;
  cancelReason: string | null;
  createdAt: string;
  expiresAt: string;
  /** Set when a payment for this order was given back (it landed after the order was cancelled). */
  refund: OrderRefund | null;
}

export interface OrderShipment {
  carrier: string;
  trackingNumber: string;
  /** The carrier's tracking page, for carriers the shop knows (DHL, FedEx, UPS, USPS). */
  trackingUrl: string | null;
  shippedAt: string;
  deliveredAt: string | null;
}

/** One step of an order's life, oldest first (GET /booking/{id}). */
export interface OrderStep {
  status: 'placed' | 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';
  at: string;
  /** Who did it, when it was a person (the buyer, an admin); absent when the store did it. */
  by?: string;
}

/** GET /booking/{id}: the order with its history and its documents. */
export interface OrderDetail extends Order {
  history: OrderStep[];
  /** The invoice and any credit notes, by number. */
  invoices: { number: string; kind: 'invoice' | 'credit note'; amountCents: number; issuedAt: string }[];
}

export interface OrderItem {
  /** null once the tool was deleted (the line keeps its name and price). */
  toolId: string | null;
  productName: string;
  /** Unit price in dollars, as placed. */
  price: number;
  quantity: number;
}

export interface OrderRefund {
  id: string;
  amountCents: number;
  refundedAt: string;
}

export interface UserProfile {
  email: string;
  name: string;
  education: string;
  social: string;
  phoneNumber: string;
  address: string;
  signUpDate: string;
  role: 'user' | 'admin';
}

/** A review as the public list shows it: without the reviewer's email (the spec's addedBy). */
export interface Review {
  _id: string;
  name: string;
  Messege: string;
  ratings: number;
}

/** GET /reviews: one page of the visible reviews and their total. */
export interface ReviewsPage {
  services: Review[];
  count: number;
}

/** A review of one tool, as its page shows it. */
export interface ToolReview extends Review {
  /** Its author had a paid order for the tool when posting (decided by the server). */
  verified: boolean;
  /** When it was posted (ISO 8601). */
  createdAt: string;
}

/** GET /tools/{id}/reviews: a page of the tool's visible reviews, newest first, with their count and average. */
export interface ToolReviewsPage {
  services: ToolReview[];
  count: number;
  /** The mean rating of the tool's visible reviews, to two decimals; null while it has none. */
  average: number | null;
  /** Ask for the next page with `cursor=` this; null on the last page. */
  nextCursor: string | null;
}

/** GET /tools/{id}/reviews/eligibility: whether the signed-in user may review the tool, and if not, why. */
export interface ToolReviewEligibility {
  canReview: boolean;
  /** notBuyer: no paid order for the tool; reviewed: one review per buyer per tool. */
  reason: 'notBuyer' | 'reviewed' | null;
}

/** GET /reviews/moderation (admins): every review with who wrote it and whether it is hidden. */
export interface ModeratedReview extends Review {
  addedBy: string;
  hidden: boolean;
}

/** One of a user's own reviews, in their data export: hidden ones too, marked. */
export interface AuthoredReview extends Review {
  hidden: boolean;
  createdAt: string;
}

/** GET /account/export: everything the store keeps about a user, as the JSON file they download. */
export interface AccountExport {
  format: 'ironcrest-account-export';
  version: 1;
  exportedAt: string;
  profile: UserProfile;
  /** Every order the account placed, newest first, with its lines, payment, shipping and refund. */
  orders: Order[];
  /** Every review the account wrote, oldest first. */
  reviews: AuthoredReview[];
}

export interface ModerationPage {
  services: ModeratedReview[];
  count: number;
}

/** A page of a dashboard list (users, products, orders), newest first, with the list's total. */
export interface ListPage<T> {
  items: T[];
  total: number;
  /** Ask for the next page with `cursor=` this; null on the last page. */
  nextCursor: string | null;
}

/** GET /contact (admins): a message sent through the home page's 'Get In Touch' form. */
export interface ContactMessage {
  _id: string;
  name: string;
  email: string;
  message: string;
  receivedAt: string;
  read: boolean;
}

/** GET /contact: a page of messages, newest first, with how many of all are unread. */
export interface ContactPage extends ListPage<ContactMessage> {
  unread: number;
}

/** GET /audit (admins): one admin action, as its event recorded it. */
export interface AuditEntry {
  seq: number;
  at: string;
  /** The event type, e.g. 'tool.restocked' (labels in src/lib/audit.ts). */
  type: string;
  /** The admin's email. */
  actor: string;
  /** What was acted on: an email, a tool id, a review id, an order id. */
  subject: string;
  /** A readable name of the subject when the event recorded one (a tool's name), else the subject. */
  target: string;
  /** What changed; null before: something was added; null after: something was removed. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A document attached to an email, rendered when it is sent (from the invoice kept with its number). */
export interface EmailAttachmentRef {
  document: 'invoice' | 'credit note';
  number: string;
}

/** An email the store made (the admin's Emails screen): sent, kept (no SMTP), failed, or waiting. */
export interface StoreEmail {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  attachments: EmailAttachmentRef[];
  state: 'pending' | 'sent' | 'kept' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** GET /settings: what an order charges besides its goods (issue 27). */
export interface ShopSettings {
  /** Dollars per order. */
  deliveryFlat: number;
  /** Goods (after the discount), in dollars, from which delivery is free; null: never. */
  freeDeliveryOver: number | null;
  /** A percentage, e.g. 15. */
  vatRate: number;
  /** Whether the listed prices already contain VAT. */
  pricesIncludeVat: boolean;
}

/** GET /discounts (admins): a code with how often it was used. */
export interface Discount {
  _id: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  minSubtotal: number | null;
  startsAt: string | null;
  expiresAt: string | null;
  maxUses: number | null;
  oncePerCustomer: boolean;
  disabled: boolean;
  uses: number;
  createdAt: string;
}

/** An order's amounts (POST /quote-totals, and each order as placed), in cents. */
export interface TotalsBreakdown {
  subtotalCents: number;
  discountCents: number;
  deliveryCents: number;
  taxCents: number;
  /** Whether taxCents is the VAT share already in the prices (else it is added). */
  taxIncluded: boolean;
  /** The VAT rate applied, a percentage. */
  vatRate: number;
  discountCode: string | null;
  totalCents: number;
}

/** A webhook endpoint (GET /webhooks, admins): never its secret, which is shown once, on creation. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEvent[];
  /** Paused: after failing without a break for a day, or never; nothing is sent until an admin resumes it. */
  state: 'active' | 'paused';
  pausedReason: string | null;
  pausedAt: string | null;
  createdAt: string;
  createdBy: string;
  /** Deliveries waiting (to be sent, or retried) and given up. */
  pending: number;
  failed: number;
  lastSuccessAt: string | null;
}

/** One event sent to one endpoint (GET /webhooks/{id}/deliveries): its last attempt and what came of it. */
export interface WebhookDelivery {
  /** The `webhook-id` header, the same on every attempt and replay. */
  id: string;
  eventType: WebhookEvent;
  /** What the event is about: an order's or a tool's id. */
  subject: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The HTTP status the receiver answered on the last attempt; null when it gave none (refused, timed out). */
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  /** When a waiting delivery is tried next. */
  nextAttemptAt: string | null;
  createdAt: string;
}
