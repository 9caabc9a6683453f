// The audit log's vocabulary, shared by the API (which events are admin actions) and the Activity
// screen (their names in words, and a change shown as before → after).

/** The event types that are admin actions, each with its name on the Activity screen. */
export const AUDIT_ACTIONS = {
  'user.made_admin': 'Made admin',
  'user.deleted': 'Deleted user',
  'tool.added': 'Added tool',
  'tool.deleted': 'Deleted tool',
  'tool.restocked': 'Restocked',
  'tool.updated': 'Edited tool',
  'tools.imported': 'Imported tools',
  'quote.answered': 'Answered quote',
  'settings.updated': 'Changed settings',
  'discount.created': 'Created discount',
  'discount.removed': 'Removed discount',
  'review.hidden': 'Hid review',
  'review.shown': 'Showed review',
  'order.shipped': 'Shipped order',
  'order.delivered': 'Delivered order',
  'order.refunded': 'Refunded order',
  'webhook.created': 'Added webhook',
  'webhook.deleted': 'Deleted webhook',
  'webhook.resumed': 'Resumed webhook',
  'webhook.replayed': 'Replayed webhook',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_TYPES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** The words for an action; an unknown type as itself. */
export const auditActionLabel = (type: string): string => AUDIT_ACTIONS[type as AuditAction] ?? type;

const FIELD_LABELS: Record<string, string> = {
  role: 'role',
  hidden: 'hidden',
  availableQuantity: 'available',
  minimumOrderQuantity: 'minimum order',
  price: 'price',
  priceBreaks: 'price breaks',
  packSize: 'pack size',
  quoteAbove: 'quotes above',
  lowStockUnits: 'low-stock level',
  deliveryFlat: 'delivery',
  freeDeliveryOver: 'free delivery from',
  vatRate: 'VAT %',
  pricesIncludeVat: 'prices include VAT',
  name: 'name',
  email: 'email',
  url: 'URL',
  events: 'events',
};

const show = (value: unknown, key = ''): string =>
  value === undefined || value === null
    ? '—'
    : key === 'price' && typeof value === 'number'
      ? `$${value.toFixed(2)}`
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);

/**
 * A change as lines of `field: before → after`, one per field that differs; a thing added or removed
 * lists its fields on one side only (`name: — → Claw hammer`).
 */
export function describeChange(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys
    .filter((key) => show(before?.[key], key) !== show(after?.[key], key))
    .map((key) => `${FIELD_LABELS[key] ?? key}: ${show(before?.[key], key)} → ${show(after?.[key], key)}`);
}
