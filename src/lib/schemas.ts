// One schema per entity, shared by the forms (browser) and the API (server).
import { z } from 'zod';
import {
  LIMITS,
  LIST_PAGE_SIZE,
  MAX_LIST_PAGE_SIZE,
  MAX_ORDER_LINES,
  MAX_TOOL_REVIEWS_PAGE_SIZE,
  MIN_PASSWORD_LENGTH,
  RATING_MAX,
  RATING_MIN,
  REVIEW_NAME_MAX,
  TOOL_REVIEWS_PAGE_SIZE,
} from './limits.ts';
import { messages } from './messages.ts';
import { isRating } from './review-rules.ts';
import { isEmail, PHONE_PATTERN } from './rules.ts';
import { AUDIT_ACTION_TYPES } from './audit.ts';
import { QUOTE_STATES } from './states.ts';
import { WEBHOOK_EVENT_TYPES } from './webhooks.ts';

// In the browser, zod probes `new Function` for its faster parsers; our CSP forbids eval, and the
// refused probe is reported as a violation. Servers keep the fast parsers.
if (typeof document !== 'undefined') z.config({ jitless: true });

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`);
const required = (max: number, message = 'This field is required') => text(max).min(1, message);

// The length first; every check is one pass over the text (the spec's pattern backtracked: issue 23).
// None aborts the others, so a form still shows every field's message at once.
export const emailSchema = z
  .string()
  .trim()
  .max(LIMITS.shortText, messages.invalidEmail)
  .refine(isEmail, messages.invalidEmail)
  // The spec's pattern lets control characters through; a NUL would reach the database from a URL.
  .refine((e) => !/[\u0000-\u001f\u007f]/.test(e), messages.invalidEmail)
  .transform((e) => e.toLowerCase());

const password = z.string().min(MIN_PASSWORD_LENGTH, messages.passwordTooShort).max(128);

export const loginSchema = z.object({ email: emailSchema, password });

export const signupSchema = z
  .object({
    name: required(LIMITS.shortText, messages.nameRequired),
    email: emailSchema,
    password,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: messages.passwordsDontMatch,
    path: ['confirmPassword'],
  });

export const phoneSchema = z.string().trim().regex(PHONE_PATTERN, messages.invalidPhone);

/**
 * A number, or a numeric string (form fields send text). Unlike z.coerce it refuses other types:
 * coercion would read true as 1, [5] as 5 and null or '' as 0.
 */
export const numeric = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);

const wholeCount = (min: number, message: string) =>
  numeric(
    z
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .min(min, message)
      .max(LIMITS.maxQuantity, `At most ${LIMITS.maxQuantity}`),
  );

/** Resource ids are opaque tokens we generate: 24 lowercase hex characters. */
export const idSchema = z.string().regex(/^[0-9a-f]{24}$/, 'Invalid id');

/** A discount code as typed: letters, digits, dashes and underscores; case does not matter. */
export const discountCodeSchema = z
  .string({ error: 'The discount code must be text' })
  .trim()
  .min(3, 'A discount code has 3 to 32 characters')
  .max(32, 'A discount code has 3 to 32 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'A discount code has letters, digits, dashes and underscores only')
  .transform((c) => c.toUpperCase());

/** An optional code on an order: absent, empty or a code. */
const optionalDiscountCode = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  discountCodeSchema.optional(),
);

/** POST /booking: the client only asks for a tool, a quantity and where to ship (and may bring a discount code). */
export const orderInputSchema = z.object({
  toolId: idSchema,
  quantity: wholeCount(1, 'Must be at least 1'),
  address: required(LIMITS.address, 'Address is required'),
  phone: phoneSchema,
  discountCode: optionalDiscountCode,
});
export type OrderInput = z.output<typeof orderInputSchema>;

/** POST /orders: a cart, each tool once; prices, names and the buyer come from the server. */
export const cartOrderInputSchema = z.object({
  items: z
    .array(z.object({ toolId: idSchema, quantity: wholeCount(1, 'Must be at least 1') }), {
      error: 'The cart is empty',
    })
    .min(1, 'The cart is empty')
    .max(MAX_ORDER_LINES, `At most ${MAX_ORDER_LINES} tools in one order`)
    .refine((items) => new Set(items.map((i) => i.toolId)).size === items.length, 'Each tool once per order'),
  address: orderInputSchema.shape.address,
  phone: phoneSchema,
  discountCode: optionalDiscountCode,
});
export type CartOrderInput = z.output<typeof cartOrderInputSchema>;

/** POST /quote-totals: what these lines would cost, with this code, without placing anything. */
export const totalsAskSchema = z.object({
  items: cartOrderInputSchema.shape.items,
  discountCode: optionalDiscountCode,
});
export type TotalsAsk = z.output<typeof totalsAskSchema>;

/** Ratings: 1 to 5 with at most two decimals (step 0.01). */
export const ratingSchema = numeric(
  z
    .number({ error: messages.ratingRange })
    .min(RATING_MIN, messages.ratingRange)
    .max(RATING_MAX, messages.ratingRange)
    .refine(isRating, messages.ratingRange),
);

/**
 * POST /review: the spec's general review, or with `toolId` a review of that tool by one of its buyers
 * (whether the author bought it, and so `verified`, is the server's to find).
 */
export const reviewInputSchema = z.object({
  name: required(REVIEW_NAME_MAX * 4, messages.nameRequired).max(REVIEW_NAME_MAX, messages.reviewNameTooLong),
  Messege: required(LIMITS.message, messages.reviewMessageRequired),
  ratings: ratingSchema,
  toolId: idSchema.optional(),
});
export type ReviewInput = z.output<typeof reviewInputSchema>;

const optionalUrl = z
  .string()
  .trim()
  .max(LIMITS.url)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'Must be a link starting with http:// or https://');

/** PUT /userupdate/{email}: what a user may change about themself (never email, role or sign-up date). */
export const profileUpdateSchema = z.object({
  name: required(LIMITS.shortText, messages.nameRequired),
  education: text(LIMITS.shortText).default(''),
  social: optionalUrl.default(''),
  phoneNumber: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => v === '' || /^\+?\d{6,15}$/.test(v), 'Phone number must be 6 to 15 digits')
    .default(''),
  address: text(LIMITS.address).default(''),
});
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

const priceDollars = numeric(
  z
    .number({ error: 'Price must be a number' })
    .positive('Price must be above 0')
    .max(LIMITS.maxPriceCents / 100, 'Price is too high')
    .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, 'Price has at most 2 decimals'),
);

/** An image URL we can show: our own upload path or an https URL (the image host). */
const imageUrl = z
  .string()
  .trim()
  .max(LIMITS.url)
  .refine((v) => /^\/(api\/images|images)\/[\w./-]+$/.test(v) || /^https:\/\/[^\s"'<>]+$/.test(v), 'Invalid image URL');

/** At most this many price breaks per tool (issue 26). */
export const MAX_PRICE_BREAKS = 5;

/** A price break as the API and the forms write it: from `minQuantity` units on, `price` dollars each. */
export const priceBreakSchema = z.object({
  minQuantity: wholeCount(2, 'A break starts at 2 units or more'),
  price: priceDollars,
});
export type PriceBreak = z.output<typeof priceBreakSchema>;

const optionalCount = (min: number, message: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), wholeCount(min, message).optional());

/** The fields of a tool an admin writes, as sent (both spellings of the minimum, see below). */
const toolFields = z.object({
  name: required(LIMITS.shortText, 'Name is required'),
  description: required(LIMITS.description, 'Description is required'),
  price: priceDollars,
  minimumOrderQuantity: wholeCount(1, 'Minimum order must be at least 1').optional(),
  MinimumOrderQuantity: wholeCount(1, 'Minimum order must be at least 1').optional(),
  availableQuantity: wholeCount(0, 'Available quantity cannot be negative'),
  img: imageUrl,
  // The trade (issue 26); each optional, so the spec's calls work unchanged.
  priceBreaks: z
    .array(priceBreakSchema, { error: 'Price breaks must be a list' })
    .max(MAX_PRICE_BREAKS, `At most ${MAX_PRICE_BREAKS} price breaks`)
    .default([]),
  packSize: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    wholeCount(1, 'Pack size must be at least 1').default(1),
  ),
  quoteAbove: optionalCount(1, 'Quote threshold must be at least 1'),
  lowStockUnits: optionalCount(0, 'Low-stock level cannot be negative'),
});

type ToolFields = z.output<typeof toolFields>;

/** The rules between a tool's fields: the minimum in whole packs, breaks above it, ascending, cheaper each. */
function checkTool(t: Omit<ToolFields, 'MinimumOrderQuantity' | 'availableQuantity'>, ctx: z.RefinementCtx) {
  const min = t.minimumOrderQuantity;
  if (min === undefined) {
    ctx.addIssue({ code: 'custom', message: 'Minimum order quantity is required', path: ['minimumOrderQuantity'] });
    return;
  }
  if (min % t.packSize !== 0)
    ctx.addIssue({
      code: 'custom',
      message: `The minimum order must be a multiple of the pack size (${t.packSize})`,
      path: ['minimumOrderQuantity'],
    });
  if (t.quoteAbove !== undefined && t.quoteAbove < min)
    ctx.addIssue({ code: 'custom', message: 'Quotes must start at or above the minimum order', path: ['quoteAbove'] });
  let last = { minQuantity: min, price: t.price };
  t.priceBreaks.forEach((b, i) => {
    if (b.minQuantity <= last.minQuantity)
      ctx.addIssue({
        code: 'custom',
        message: i === 0 ? 'The first break must be above the minimum order' : 'Break quantities must go up',
        path: ['priceBreaks', i, 'minQuantity'],
      });
    else if (b.price >= last.price)
      ctx.addIssue({
        code: 'custom',
        message: 'Each break must be cheaper than the price before it',
        path: ['priceBreaks', i, 'price'],
      });
    last = b;
  });
}

/**
 * POST /tools. The spec's form sends MinimumOrderQuantity (capital M) with the two quantity fields swapped;
 * we accept either spelling of the minimum and store every number in its own column.
 */
export const toolInputSchema = toolFields
  .transform(({ MinimumOrderQuantity, minimumOrderQuantity, ...rest }) => ({
    ...rest,
    minimumOrderQuantity: minimumOrderQuantity ?? MinimumOrderQuantity,
  }))
  .superRefine(checkTool);
export type ToolInput = z.output<typeof toolInputSchema> & { minimumOrderQuantity: number };

/** PUT /tools/{id} (Edit product): every field but the stock, which keeps its own restock call. */
export const toolEditSchema = toolFields
  .omit({ availableQuantity: true })
  .transform(({ MinimumOrderQuantity, minimumOrderQuantity, ...rest }) => ({
    ...rest,
    minimumOrderQuantity: minimumOrderQuantity ?? MinimumOrderQuantity,
  }))
  .superRefine(checkTool);
export type ToolEdit = z.output<typeof toolEditSchema> & { minimumOrderQuantity: number };

/** PUT /tool/update/{id}: an admin restock (sets the stock; buying never calls it). */
export const restockSchema = z.object({ availableQuantity: wholeCount(0, 'Available quantity cannot be negative') });

export const contactSchema = z.object({
  name: required(LIMITS.shortText, messages.nameRequired),
  email: emailSchema,
  message: required(LIMITS.message, 'Message is required'),
});
export type ContactInput = z.output<typeof contactSchema>;

/** PUT /contact/{id}/read (admins): a message marked read, or unread again. */
export const contactReadSchema = z.object({ read: z.boolean({ error: 'read must be true or false' }) });
export type ContactRead = z.output<typeof contactReadSchema>;

export const reviewsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(5),
  pageNumber: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const pageLimit = z.coerce
  .number({ error: 'limit must be a whole number' })
  .int('limit must be a whole number')
  .min(1, 'limit must be at least 1')
  .max(MAX_LIST_PAGE_SIZE, `limit must be at most ${MAX_LIST_PAGE_SIZE}`);
const pageCursor = z
  .string()
  .max(600, 'cursor is not valid')
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid');

/**
 * Paging of a dashboard list: a page of `limit` rows after `cursor` (the previous page's nextCursor, opaque).
 */
export const listPageQuery = (defaultLimit: number) =>
  z.object({ limit: pageLimit.default(defaultLimit), cursor: pageCursor.optional() });
export const listPageQuerySchema = listPageQuery(LIST_PAGE_SIZE);

/**
 * Paging of GET /allusers, /booking, /booking/email/{email}, /quotes and /tools, which answer the spec's
 * plain array when asked with neither `limit` nor `cursor`.
 */
export const pagingQuerySchema = z.object({ limit: pageLimit.optional(), cursor: pageCursor.optional() });

/** GET /tools/{id}/reviews: `limit` reviews after `cursor` (the previous page's nextCursor, opaque). */
export const toolReviewsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_TOOL_REVIEWS_PAGE_SIZE, `limit must be at most ${MAX_TOOL_REVIEWS_PAGE_SIZE}`)
    .default(TOOL_REVIEWS_PAGE_SIZE),
  cursor: listPageQuerySchema.shape.cursor,
});

/** PUT /reviews/hide/{id}: an admin hides a review from the public list, or shows it again. */
export const reviewHiddenSchema = z.object({ hidden: z.boolean({ error: 'hidden must be true or false' }) });

/**
 * The profile's Change password form (the browser only: Firebase checks and stores passwords). The
 * spec's password rules apply to the new one.
 */
export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, messages.currentPasswordRequired).max(128),
    newPassword: password,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: messages.passwordsDontMatch,
    path: ['confirmPassword'],
  })
  .refine((v) => v.newPassword !== v.currentPassword, { message: messages.passwordUnchanged, path: ['newPassword'] });
export type PasswordChange = z.output<typeof passwordChangeSchema>;

/**
 * DELETE /account: a Firebase ID token from a re-authentication moments ago (a JWT: three base64url
 * parts; the emulator's have an empty signature). Checked by the server's identity module.
 */
export const accountDeletionSchema = z.object({
  idToken: z
    .string({ error: 'idToken is required' })
    .max(8192, 'idToken is not valid')
    .regex(/^[\w-]+\.[\w-]+\.[\w-]*$/, 'idToken is not valid'),
});
export type AccountDeletion = z.output<typeof accountDeletionSchema>;

/**
 * First message of a zod error per field: what forms show under inputs. A nested field's message is also
 * under its whole path (`priceBreaks.0.price`), for forms with rows.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_');
    out[key] ??= issue.message;
    if (issue.path.length > 1) out[issue.path.map(String).join('.')] ??= issue.message;
  }
  return out;
}

const isoDay = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      `${field} must be a real date`,
    )
    .optional();

/** The orders' sort orders on Manage All Orders: by date or by total, either way. */
export const ORDER_SORTS = ['newest', 'oldest', 'total-desc', 'total-asc'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

/**
 * GET /booking?… (admin): a page of orders found by email, name or order id (`q`), by payment and
 * shipping state, placed within a date range (days in UTC, both ends included), sorted. The dashboard
 * keeps the same fields in its address, so a view can be shared.
 */
export const orderListQuerySchema = listPageQuerySchema
  .extend({
    q: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
    payment: z.enum(['unpaid', 'paid', 'cancelled'], { error: 'payment must be unpaid, paid or cancelled' }).optional(),
    shipping: z.enum(['pending', 'shipped'], { error: 'shipping must be pending or shipped' }).optional(),
    from: isoDay('from'),
    to: isoDay('to'),
    sort: z.enum(ORDER_SORTS, { error: `sort must be one of ${ORDER_SORTS.join(', ')}` }).default('newest'),
  })
  .refine((o) => !o.from || !o.to || o.from <= o.to, { message: 'from must not be after to', path: ['to'] });
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

/** GET /export/orders.csv?from&to (admin): the orders placed on those days (UTC, both ends included; either may be left out). */
export const orderExportQuerySchema = z
  .object({ from: isoDay('from'), to: isoDay('to') })
  .refine((o) => !o.from || !o.to || o.from <= o.to, { message: 'from must not be after to', path: ['to'] });
export type OrderExportQuery = z.output<typeof orderExportQuerySchema>;

/** GET /allusers?… (admin): with `q`, a page of users whose email contains it. */
export const userListQuerySchema = pagingQuerySchema.extend({
  q: z.string().trim().toLowerCase().max(200, 'search must be at most 200 characters').optional(),
});

/**
 * PUT /booking/ship/{id} (admin): who carries a paid order and its tracking number. The spec's call
 * sends no body: the order is then shipped with neither (the ship form always sends both).
 */
export const shipmentSchema = z.object({
  carrier: z.string().trim().min(1, 'Please enter the carrier').max(60, 'The carrier must be at most 60 characters'),
  trackingNumber: z
    .string()
    .trim()
    .min(1, 'Please enter the tracking number')
    .max(60, 'The tracking number must be at most 60 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'A tracking number has letters, digits, spaces and dashes only'),
});
export type ShipmentInput = z.infer<typeof shipmentSchema>;

/**
 * PUT /booking/refund/{id} (admin): give back a paid order's money, all of it by default or `amount`
 * dollars of it, and with `restock` its units to the stock (once per order).
 */
export const refundSchema = z.object({
  restock: z.boolean({ error: 'restock must be true or false' }),
  amount: numeric(
    z
      .number({ error: 'The amount must be a number' })
      .positive('The amount must be above 0')
      .max(1_000_000, 'The amount is too high')
      .refine((a) => Math.abs(Math.round(a * 100) - a * 100) < 1e-6, 'The amount has at most 2 decimals'),
  ).optional(),
});
export type RefundInput = z.infer<typeof refundSchema>;
/** GET /audit (admins): a page of the admins' actions, newest first, of one kind when `type` is given. */
export const auditQuerySchema = listPageQuerySchema.extend({
  type: z.enum(AUDIT_ACTION_TYPES, { error: `type must be one of ${AUDIT_ACTION_TYPES.join(', ')}` }).optional(),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

/** GET /tools/{id}/ledger (admins): a page of a tool's stock movements, newest first. */
export const ledgerQuerySchema = listPageQuerySchema;

/** POST /quotes: a signed-in buyer asks a price for these tools and quantities (each tool once). */
export const quoteRequestSchema = z.object({
  items: cartOrderInputSchema.shape.items,
  note: text(LIMITS.message).default(''),
});
export type QuoteRequest = z.output<typeof quoteRequestSchema>;

/** PUT /quotes/{id}/answer (admins): a unit price for every line and the day or moment the offer ends. */
export const quoteAnswerSchema = z.object({
  lines: z
    .array(z.object({ toolId: idSchema, price: priceDollars }), { error: 'lines must be a list' })
    .min(1, 'Give a price for every line')
    .max(MAX_ORDER_LINES, `At most ${MAX_ORDER_LINES} lines`),
  expiresAt: z
    .string({ error: 'expiresAt is required' })
    .trim()
    .max(40)
    .refine(
      (v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)),
      'expiresAt must be a date',
    )
    // A bare day offers the quote until the end of that day (UTC).
    .transform((v) => new Date(v.length === 10 ? `${v}T23:59:59.999Z` : v)),
});
export type QuoteAnswer = z.output<typeof quoteAnswerSchema>;

/** Dollars with at most 2 decimals, from 0 (a money setting or limit). */
const dollarsFromZero = (name: string) =>
  numeric(
    z
      .number({ error: `${name} must be a number` })
      .min(0, `${name} cannot be negative`)
      .max(1_000_000, `${name} is too high`)
      .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, `${name} has at most 2 decimals`),
  );
/** A percentage with at most 2 decimals. */
const percent = (name: string, min: number) =>
  numeric(
    z
      .number({ error: `${name} must be a number` })
      .min(min, `${name} must be at least ${min}`)
      .max(100, `${name} must be at most 100`)
      .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, `${name} has at most 2 decimals`),
  );
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** PUT /settings (admins): what every order placed after it charges besides its goods. */
export const settingsSchema = z.object({
  deliveryFlat: dollarsFromZero('Delivery').default(0),
  freeDeliveryOver: optional(dollarsFromZero('Free delivery threshold')),
  vatRate: percent('VAT rate', 0).default(0),
  pricesIncludeVat: z.boolean({ error: 'pricesIncludeVat must be true or false' }).default(false),
});
export type SettingsInput = z.output<typeof settingsSchema>;

/** A moment, or a bare day (UTC): the start of that day, or with `endOfDay` its end (an end date includes its day). */
const moment = (name: string, endOfDay = false) =>
  optional(
    z
      .string({ error: `${name} must be a date` })
      .trim()
      .max(40)
      .refine(
        (v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)),
        `${name} must be a date`,
      )
      .transform((v) => new Date(v.length === 10 ? `${v}T${endOfDay ? '23:59:59.999' : '00:00:00'}Z` : v)),
  );

/** POST /discounts (admins): a code worth a percentage or an amount off the goods, within its limits. */
export const discountInputSchema = z
  .object({
    code: discountCodeSchema,
    percentOff: optional(percent('Percent off', 0.01)),
    amountOff: optional(dollarsFromZero('Amount off').refine((v) => v > 0, 'Amount off must be above 0')),
    minSubtotal: optional(dollarsFromZero('Minimum order')),
    startsAt: moment('Start'),
    expiresAt: moment('End', true),
    maxUses: optional(wholeCount(1, 'Uses must be at least 1')),
    oncePerCustomer: z.boolean({ error: 'oncePerCustomer must be true or false' }).default(false),
  })
  .refine((d) => (d.percentOff === undefined) !== (d.amountOff === undefined), {
    message: 'Give either a percent off or an amount off',
    path: ['percentOff'],
  })
  .refine((d) => !d.startsAt || !d.expiresAt || d.startsAt < d.expiresAt, {
    message: 'The end must be after the start',
    path: ['expiresAt'],
  });
export type DiscountInput = z.output<typeof discountInputSchema>;
/** POST /quotes/{id}/accept (its buyer): where to ship the order it places, as an order asks. */
export const quoteAcceptSchema = z.object({ address: orderInputSchema.shape.address, phone: phoneSchema });
export type QuoteAccept = z.output<typeof quoteAcceptSchema>;

/** GET /quotes: only the quotes in one state ('expired': answered, past their expiry). */
export const quoteListQuerySchema = pagingQuerySchema.extend({
  state: z.enum(QUOTE_STATES, { error: `state must be one of ${QUOTE_STATES.join(', ')}` }).optional(),
});

/**
 * A webhook endpoint's URL as typed: an absolute http(s) URL without a user name or password (a secret
 * in a URL ends up in logs; deliveries are signed instead). Whether its host may be called (https in
 * production, no private address) is the server's check, at creation and at every delivery.
 */
export const webhookUrlSchema = z
  .string({ error: messages.webhookUrlInvalid })
  .trim()
  .min(1, messages.webhookUrlInvalid)
  .max(LIMITS.url, `At most ${LIMITS.url} characters`)
  .refine((v) => {
    if (!/^https?:\/\/[^\s]+$/i.test(v) || !URL.canParse(v)) return false;
    const url = new URL(v);
    return url.hostname !== '' && url.username === '' && url.password === '';
  }, messages.webhookUrlInvalid);

/** POST /webhooks (admins): where to send which events. */
export const webhookInputSchema = z.object({
  url: webhookUrlSchema,
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: messages.webhookEventUnknown }), {
      error: messages.webhookEventsRequired,
    })
    .min(1, messages.webhookEventsRequired)
    .max(WEBHOOK_EVENT_TYPES.length)
    .refine((events) => new Set(events).size === events.length, messages.webhookEventTwice),
});
export type WebhookInput = z.output<typeof webhookInputSchema>;

/** A delivery's id: its `webhook-id` header, the same on every retry and replay. */
export const webhookDeliveryIdSchema = z.string().regex(/^msg_[0-9a-f]{32}$/, 'Invalid delivery id');
