// Money is integer cents everywhere; dollars only at the edges (display, the spec's JSON `price`).
export const toCents = (dollars: number): number => Math.round(dollars * 100);
export const toDollars = (cents: number): number => cents / 100;

/**
 * "$1,234.50" and "-$0.05", as `Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })` writes
 * them (a test holds the two equal), but without ICU: a server that formats with Intl maps ICU's data pages
 * of the node binary, ~8 MiB more resident for the life of the process (bench/before-after.md).
 */
export function formatCents(cents: number): string {
  const whole = Math.round(Math.abs(cents)); // half away from zero, as Intl rounds
  const digits = String(Math.floor(whole / 100));
  let dollars = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = dollars.length; i < digits.length; i += 3) dollars += `,${digits.slice(i, i + 3)}`;
  return `${cents < 0 || Object.is(cents, -0) ? '-' : ''}$${dollars}.${String(whole % 100).padStart(2, '0')}`;
}

/** Order total in cents: quantity × unit price, exact. */
export const orderTotalCents = (quantity: number, unitPriceCents: number): number => quantity * unitPriceCents;
