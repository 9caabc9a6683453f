// Money is integer cents everywhere; dollars only at the edges (display, the spec's JSON `price`).
export const toCents = (dollars: number): number => Math.round(dollars * 100);
export const toDollars = (cents: number): number => cents / 100;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const formatCents = (cents: number): string => usd.format(cents / 100);

/** Order total in cents: quantity × unit price, exact. */
export const orderTotalCents = (quantity: number, unitPriceCents: number): number => quantity * unitPriceCents;
