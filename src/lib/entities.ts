// The entities as the API serves them (spec point 3 names): one zod schema each, and its type. The
// server's mappers, the islands and the tests use the types; the API's contracts (src/lib/contracts/)
// use the schemas as the answers' shapes, which the OpenAPI document shows and the tests check every
// answer against. Money is dollars here because the spec's JSON says `price`. Objects are strict: an
// answer with a field its schema does not name (a reviewer's email in the public list) fails the tests.
// The browser imports only the types (no schema reaches an island's bundle).
import { z } from 'zod';
import { idSchema } from './schemas.ts';
import { QUOTE_STATES, STOCK_REASONS } from './states.ts';
import { WEBHOOK_EVENT_TYPES } from './webhooks.ts';

const when = z.iso.datetime();
const count = z.number().int().min(0);
const cents = z.number().int();

/** A quantity price (issue 26): from `minQuantity` units on, `price` dollars each. */
const priceBreak = z.strictObject({ minQuantity: z.number().int(), price: z.number() });

export const toolSchema = z
  .strictObject({
    _id: idSchema,
    name: z.string(),
    img: z.string(),
    description: z.string(),
    minimumOrderQuantity: z.number().int(),
    availableQuantity: z.number().int(),
    price: z.number(),
    priceBreaks: z.array(priceBreak).describe('Quantity prices, ascending; empty: one price.'),
    packSize: z.number().int().describe('Quantities are whole packs of this many units (1: any quantity).'),
    quoteAbove: z
      .number()
      .int()
      .nullable()
      .describe('Above this many units a buyer asks for a quote instead of ordering (null: never).'),
  })
  .meta({ id: 'Tool' });
export type Tool = z.output<typeof toolSchema>;

/** A tool as Manage products lists it (admins): its low-stock level and whether stock is below it. */
export const adminToolSchema = toolSchema
  .extend({
    lowStockUnits: z.number().int().describe("The low-stock level in effect: the tool's own, else the shop's default."),
    lowStock: z.boolean(),
    ownLowStockUnits: z
      .number()
      .int()
      .nullable()
      .describe("The tool's own level (null: it follows the shop's default)."),
  })
  .meta({ id: 'AdminTool' });
export type AdminTool = z.output<typeof adminToolSchema>;

export const stockReasonSchema = z.enum(STOCK_REASONS);
export type StockReason = z.output<typeof stockReasonSchema>;

/** One movement of a tool's stock (GET /tools/{id}/ledger); `balance` is the units for sale after it. */
export const stockMovementSchema = z
  .strictObject({
    id: z.number().int(),
    toolId: idSchema,
    delta: z.number().int(),
    reason: stockReasonSchema,
    orderId: idSchema.nullable(),
    actor: z.string().nullable(),
    at: when,
    balance: z.number().int(),
  })
  .meta({ id: 'StockMovement' });
export type StockMovement = z.output<typeof stockMovementSchema>;

export const quoteStateSchema = z.enum(QUOTE_STATES);
export type QuoteState = z.output<typeof quoteStateSchema>;

export const quoteLineSchema = z.strictObject({
  toolId: idSchema.nullable(),
  productName: z.string(),
  quantity: z.number().int(),
  listPrice: z.number().describe('The list (price-break) unit price when asked, in dollars.'),
  price: z.number().nullable().describe("The shop's unit price, in dollars, once answered."),
});
export type QuoteLine = z.output<typeof quoteLineSchema>;

/** A quote request (issue 26): requested, then answered by the shop, then accepted (an order) or declined. */
export const quoteSchema = z
  .strictObject({
    _id: idSchema,
    email: z.string(),
    userName: z.string(),
    note: z.string(),
    state: quoteStateSchema.describe("'expired': answered, and its offer ran out before the buyer accepted."),
    lines: z.array(quoteLineSchema),
    totalCents: cents.nullable().describe('The quoted total in cents, once answered.'),
    createdAt: when,
    answeredAt: when.nullable(),
    expiresAt: when.nullable(),
    orderId: idSchema.nullable().describe('The order placed by accepting it.'),
  })
  .meta({ id: 'Quote' });
export type Quote = z.output<typeof quoteSchema>;

/** An order's amounts (POST /quote-totals, and each order as placed), in cents. */
export const totalsBreakdownSchema = z
  .strictObject({
    subtotalCents: cents,
    discountCents: cents,
    deliveryCents: cents,
    taxCents: cents,
    taxIncluded: z.boolean().describe('Whether taxCents is the VAT share already in the prices (else it is added).'),
    vatRate: z.number().describe('The VAT rate applied, a percentage.'),
    discountCode: z.string().nullable(),
    totalCents: cents,
  })
  .meta({ id: 'TotalsBreakdown' });
export type TotalsBreakdown = z.output<typeof totalsBreakdownSchema>;

export const orderItemSchema = z.strictObject({
  toolId: idSchema.nullable().describe('null once the tool was deleted (the line keeps its name and price).'),
  productName: z.string(),
  price: z.number().describe('Unit price in dollars, as placed.'),
  quantity: z.number().int(),
});
export type OrderItem = z.output<typeof orderItemSchema>;

export const orderShipmentSchema = z.strictObject({
  carrier: z.string(),
  trackingNumber: z.string(),
  trackingUrl: z
    .string()
    .nullable()
    .describe("The carrier's tracking page, for carriers the shop knows (DHL, FedEx, UPS, USPS)."),
  shippedAt: when,
  deliveredAt: when.nullable(),
});
export type OrderShipment = z.output<typeof orderShipmentSchema>;

export const orderRefundSchema = z.strictObject({ id: z.string(), amountCents: cents, refundedAt: when });
export type OrderRefund = z.output<typeof orderRefundSchema>;

/** An order: its amounts as placed (the one payment asks totalCents) and the rest. */
export const orderSchema = totalsBreakdownSchema
  .extend({
    _id: idSchema,
    toolId: idSchema.nullable(),
    productName: z.string().describe('A one-line order\'s tool name; with several lines, "N tools".'),
    price: z
      .number()
      .describe("A one-line order's unit price in dollars, as placed; with several lines, the order's total."),
    refundedCents: cents.describe(
      "Given back by an admin's refunds: refunded when it reaches totalCents, partly refunded below.",
    ),
    items: z.array(orderItemSchema).describe("The order's lines, as placed (the spec's one tool is one line)."),
    userName: z.string(),
    email: z.string(),
    address: z.string(),
    phone: z.string(),
    quantity: z.number().int().describe("A one-line order's quantity; with several lines, all units together."),
    payment: z.enum(['unpaid', 'paid', 'cancelled']),
    transactionId: z.string().nullable(),
    shippingStatus: z
      .enum(['pending', 'shipped', 'delivered'])
      .describe("'pending' is the spec's label for a paid order not shipped yet."),
    shipment: orderShipmentSchema.nullable(),
    cancelReason: z.string().nullable(),
    createdAt: when,
    expiresAt: when,
    refund: orderRefundSchema
      .nullable()
      .describe('Set when a payment for this order was given back (it landed after the order was cancelled).'),
  })
  .meta({ id: 'Order' });
export type Order = z.output<typeof orderSchema>;

/** One step of an order's life, oldest first (GET /booking/{id}). */
export const orderStepSchema = z.strictObject({
  status: z.enum(['placed', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded']),
  at: when,
  by: z
    .string()
    .optional()
    .describe('Who did it, when it was a person (the buyer, an admin); absent when the store did it.'),
});
export type OrderStep = z.output<typeof orderStepSchema>;

/** GET /booking/{id}: the order with its history and its documents (the invoice and any credit notes). */
export const orderDetailSchema = orderSchema
  .extend({
    history: z.array(orderStepSchema),
    invoices: z.array(
      z.strictObject({
        number: z.string(),
        kind: z.enum(['invoice', 'credit note']),
        amountCents: cents,
        issuedAt: when,
      }),
    ),
  })
  .meta({ id: 'OrderDetail' });
export type OrderDetail = z.output<typeof orderDetailSchema>;

export const userProfileSchema = z
  .strictObject({
    email: z.string(),
    name: z.string(),
    education: z.string(),
    social: z.string(),
    phoneNumber: z.string(),
    address: z.string(),
    signUpDate: when,
    role: z.enum(['user', 'admin']),
  })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.output<typeof userProfileSchema>;

/** A review as the public list shows it: without the reviewer's email (the spec's addedBy). */
export const reviewSchema = z
  .strictObject({ _id: idSchema, name: z.string(), Messege: z.string(), ratings: z.number() })
  .meta({ id: 'Review' });
export type Review = z.output<typeof reviewSchema>;

/** GET /reviews: one page of the visible reviews and their total. */
export const reviewsPageSchema = z.strictObject({ services: z.array(reviewSchema), count });
export type ReviewsPage = z.output<typeof reviewsPageSchema>;

/** A review of one tool, as its page shows it. */
export const toolReviewSchema = reviewSchema
  .extend({
    verified: z.boolean().describe('Its author had a paid order for the tool when posting (decided by the server).'),
    createdAt: when,
  })
  .meta({ id: 'ToolReview' });
export type ToolReview = z.output<typeof toolReviewSchema>;

/** GET /tools/{id}/reviews: a page of the tool's visible reviews, newest first, with their count and average. */
export const toolReviewsPageSchema = z.strictObject({
  services: z.array(toolReviewSchema),
  count,
  average: z
    .number()
    .nullable()
    .describe("The mean rating of the tool's visible reviews, to two decimals; null while it has none."),
  nextCursor: z.string().nullable().describe('Ask for the next page with `cursor=` this; null on the last page.'),
});
export type ToolReviewsPage = z.output<typeof toolReviewsPageSchema>;

/** GET /tools/{id}/reviews/eligibility: whether the signed-in user may review the tool, and if not, why. */
export const toolReviewEligibilitySchema = z.strictObject({
  canReview: z.boolean(),
  reason: z
    .enum(['notBuyer', 'reviewed'])
    .nullable()
    .describe('notBuyer: no paid order for the tool; reviewed: one review per buyer per tool.'),
});
export type ToolReviewEligibility = z.output<typeof toolReviewEligibilitySchema>;

/** GET /reviews/moderation (admins): every review with who wrote it and whether it is hidden. */
export const moderatedReviewSchema = reviewSchema
  .extend({ addedBy: z.string(), hidden: z.boolean() })
  .meta({ id: 'ModeratedReview' });
export type ModeratedReview = z.output<typeof moderatedReviewSchema>;

export const moderationPageSchema = z.strictObject({ services: z.array(moderatedReviewSchema), count });
export type ModerationPage = z.output<typeof moderationPageSchema>;

/** One of a user's own reviews, in their data export: hidden ones too, marked. */
export const authoredReviewSchema = reviewSchema.extend({ hidden: z.boolean(), createdAt: when });
export type AuthoredReview = z.output<typeof authoredReviewSchema>;

/** GET /account/export: everything the store keeps about a user, as the JSON file they download. */
export const accountExportSchema = z
  .strictObject({
    format: z.literal('ironcrest-account-export'),
    version: z.literal(1),
    exportedAt: when,
    profile: userProfileSchema,
    orders: z.array(orderSchema).describe('Every order the account placed, newest first.'),
    reviews: z.array(authoredReviewSchema).describe('Every review the account wrote, oldest first.'),
  })
  .meta({ id: 'AccountExport' });
export type AccountExport = z.output<typeof accountExportSchema>;

/** A page of a dashboard list (users, products, orders), newest first, with the list's total. */
export interface ListPage<T> {
  items: T[];
  total: number;
  /** Ask for the next page with `cursor=` this; null on the last page. */
  nextCursor: string | null;
}
export const listPageSchema = <S extends z.ZodType>(item: S) =>
  z.strictObject({
    items: z.array(item),
    total: count,
    nextCursor: z.string().nullable().describe('Ask for the next page with `cursor=` this; null on the last page.'),
  });

/** GET /contact (admins): a message sent through the home page's 'Get In Touch' form. */
export const contactMessageSchema = z
  .strictObject({
    _id: idSchema,
    name: z.string(),
    email: z.string(),
    message: z.string(),
    receivedAt: when,
    read: z.boolean(),
  })
  .meta({ id: 'ContactMessage' });
export type ContactMessage = z.output<typeof contactMessageSchema>;

/** GET /contact: a page of messages, newest first, with how many of all are unread. */
export const contactPageSchema = listPageSchema(contactMessageSchema).extend({ unread: count });
export type ContactPage = z.output<typeof contactPageSchema>;

/** GET /audit (admins): one admin action, as its event recorded it. */
export const auditEntrySchema = z
  .strictObject({
    seq: z.number().int(),
    at: when,
    type: z.string().describe("The event type, e.g. 'tool.restocked'."),
    actor: z.string().describe("The admin's email."),
    subject: z.string().describe('What was acted on: an email, a tool id, a review id, an order id.'),
    target: z
      .string()
      .describe("A readable name of the subject when the event recorded one (a tool's name), else the subject."),
    before: z.record(z.string(), z.unknown()).nullable().describe('What changed; null before: something was added.'),
    after: z.record(z.string(), z.unknown()).nullable().describe('null after: something was removed.'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.output<typeof auditEntrySchema>;

/** A document attached to an email, rendered when it is sent (from the invoice kept with its number). */
export const emailAttachmentRefSchema = z.strictObject({
  document: z.enum(['invoice', 'credit note']),
  number: z.string(),
});
export type EmailAttachmentRef = z.output<typeof emailAttachmentRefSchema>;

/** An email the store made (the admin's Emails screen): sent, kept (no SMTP), failed, or waiting. */
export const storeEmailSchema = z
  .strictObject({
    id: idSchema,
    kind: z.string(),
    recipient: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    attachments: z.array(emailAttachmentRefSchema),
    state: z.enum(['pending', 'sent', 'kept', 'failed']),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: when,
    sentAt: when.nullable(),
  })
  .meta({ id: 'StoreEmail' });
export type StoreEmail = z.output<typeof storeEmailSchema>;

/** GET /settings: what an order charges besides its goods (issue 27). */
export const shopSettingsSchema = z
  .strictObject({
    deliveryFlat: z.number().describe('Dollars per order.'),
    freeDeliveryOver: z
      .number()
      .nullable()
      .describe('Goods (after the discount), in dollars, from which delivery is free; null: never.'),
    vatRate: z.number().describe('A percentage, e.g. 15.'),
    pricesIncludeVat: z.boolean().describe('Whether the listed prices already contain VAT.'),
  })
  .meta({ id: 'ShopSettings' });
export type ShopSettings = z.output<typeof shopSettingsSchema>;

/** GET /discounts (admins): a code with how often it was used. */
export const discountSchema = z
  .strictObject({
    _id: idSchema,
    code: z.string(),
    percentOff: z.number().nullable(),
    amountOff: z.number().nullable(),
    minSubtotal: z.number().nullable(),
    startsAt: when.nullable(),
    expiresAt: when.nullable(),
    maxUses: z.number().int().nullable(),
    oncePerCustomer: z.boolean(),
    disabled: z.boolean(),
    uses: count,
    createdAt: when,
  })
  .meta({ id: 'Discount' });
export type Discount = z.output<typeof discountSchema>;

export const importActionSchema = z.enum(['create', 'update', 'error']);
export type ImportAction = z.output<typeof importActionSchema>;

/** One data row of an import: what it does (or why it cannot), by the line of the file it starts on. */
export const importRowSchema = z.strictObject({
  row: z.number().int(),
  action: importActionSchema,
  _id: idSchema.optional().describe('The tool it updates (update).'),
  name: z.string(),
  errors: z.array(z.strictObject({ column: z.string(), message: z.string() })).optional(),
});
export type ImportRow = z.output<typeof importRowSchema>;

/** POST /import/tools's answer: every row, and the counts. */
export const importReportSchema = z
  .strictObject({
    dryRun: z.boolean(),
    rows: z.array(importRowSchema),
    summary: z.strictObject({ create: count, update: count, error: count }),
  })
  .meta({ id: 'ImportReport' });
export type ImportReport = z.output<typeof importReportSchema>;

const webhookEventSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** A webhook endpoint (GET /webhooks, admins): never its secret, which is shown once, on creation. */
export const webhookEndpointSchema = z
  .strictObject({
    id: z.string(),
    url: z.string(),
    events: z.array(webhookEventSchema),
    state: z
      .enum(['active', 'paused'])
      .describe('Paused: after failing without a break for a day; nothing is sent until an admin resumes it.'),
    pausedReason: z.string().nullable(),
    pausedAt: when.nullable(),
    createdAt: when,
    createdBy: z.string(),
    pending: count.describe('Deliveries waiting to be sent or retried.'),
    failed: count.describe('Deliveries given up.'),
    lastSuccessAt: when.nullable(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

/** One event sent to one endpoint (GET /webhooks/{id}/deliveries): its last attempt and what came of it. */
export const webhookDeliverySchema = z
  .strictObject({
    id: z.string().describe('The `webhook-id` header, the same on every attempt and replay.'),
    eventType: webhookEventSchema,
    subject: z.string().describe("What the event is about: an order's or a tool's id."),
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: count,
    responseStatus: z
      .number()
      .int()
      .nullable()
      .describe('The status the receiver answered on the last attempt; null when it gave none.'),
    durationMs: z.number().nullable(),
    error: z.string().nullable(),
    lastAttemptAt: when.nullable(),
    nextAttemptAt: when.nullable().describe('When a waiting delivery is tried next.'),
    createdAt: when,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;
