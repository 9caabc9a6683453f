// The reads of the `payments` table made outside payments.sql.ts, joined into the orders' reads: an
// order's refunded payment (order-rows.ts' ORDER_SELECT) and whether it has payments still open. Kept
// here, beside the table's owner, so the table's SQL stays in one feature; it is SQL, not a service, so
// orders depend on no payments code.
export const ORDER_REFUND_JOIN = `LEFT JOIN LATERAL (SELECT refund_id, amount_cents AS refund_cents, refunded_at FROM payments
    WHERE order_id = o.id AND status = 'refunded' ORDER BY refunded_at DESC LIMIT 1) r ON true`;

/** A payment that may still take money: neither cancelled nor given back (payments.sql.ts' selectOpenPayments). */
export const PAYMENT_OPEN = `status NOT IN ('canceled', 'refunded')`;

/** Whether order `o` has an open payment with any provider (before an unpaid order goes, they are closed). */
export const ORDER_HAS_OPEN_PAYMENT = `EXISTS (SELECT 1 FROM payments WHERE order_id = o.id AND ${PAYMENT_OPEN})`;
