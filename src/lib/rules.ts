// The rules a form checks as the user types, without zod: pages that need only these (the tool
// page's purchase form) do not load the schema library. schemas.ts builds the API's checks on them.
import { messages } from './messages.ts';

/**
 * Spec point 5: text, @, text, dot, text (no space and no second @ anywhere, a dot inside the domain).
 * The same strings as /^[^\s@]+@[^\s@]+\.[^\s@]+$/, checked in one pass: that pattern backtracks over
 * every dot of the domain, so 'a@' + 60,000 dots + '@' took seconds (issue 23).
 */
export function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at < 1 || value.includes('@', at + 1) || /\s/.test(value)) return false;
  // The first dot after the domain's first character; it must not be the last character.
  const dot = value.indexOf('.', at + 2);
  return dot !== -1 && dot < value.length - 1;
}
/** Spec point 5: optional +88 or 0088, then 01, a digit 3 to 9, then 8 digits. */
export const PHONE_PATTERN = /^(?:\+88|0088)?01[3-9]\d{8}$/;

/** What the quantity rules read of a tool (packSize 1 and quoteAbove null when the tool has neither). */
export interface QuantityRules {
  minimumOrderQuantity: number;
  availableQuantity: number;
  packSize?: number;
  quoteAbove?: number | null;
}

/**
 * Spec point 5 purchase rules, checked against the live tool, then the trade's (issue 26): whole packs,
 * and no more than `quoteAbove` units without a quote. Returns the message or null.
 */
export function quantityError(quantity: number, tool: QuantityRules): string | null {
  if (!Number.isFinite(quantity) || quantity < tool.minimumOrderQuantity) return messages.quantityBelowMinimum;
  const packSize = tool.packSize ?? 1;
  if (quantity % packSize !== 0) return messages.quantityNotMultiple(packSize);
  if (tool.quoteAbove != null && quantity > tool.quoteAbove) return messages.quantityNeedsQuote(tool.quoteAbove);
  if (quantity > tool.availableQuantity) return messages.quantityAboveAvailable;
  return null;
}

/** The quantity rules a quote request keeps: the minimum order and whole packs (stock and price are negotiated). */
export function quoteQuantityError(
  quantity: number,
  tool: { minimumOrderQuantity: number; packSize?: number },
): string | null {
  if (!Number.isFinite(quantity) || quantity < tool.minimumOrderQuantity) return messages.quantityBelowMinimum;
  const packSize = tool.packSize ?? 1;
  return quantity % packSize !== 0 ? messages.quantityNotMultiple(packSize) : null;
}

/** The input for a quantity of a tool (its page's cart form, the purchase form): whole packs, from the minimum order. */
export const quantityInput = (tool: { minimumOrderQuantity: number; packSize?: number }) =>
  ({ type: 'number', inputMode: 'numeric', step: tool.packSize ?? 1, min: tool.minimumOrderQuantity }) as const;
