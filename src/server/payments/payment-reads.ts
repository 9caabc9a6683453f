// The one read of the `payments` table made outside payments.sql.ts: an order's refunded payment,
// joined into the orders' reads (order-rows.ts' ORDER_SELECT). Kept here, beside the table's owner,
// so the table's SQL stays in one feature; it is SQL, not a service, so orders depend on no payments code.
export const ORDER_REFUND_JOIN = `LEFT JOIN LATERAL (SELECT refund_id, amount_cents AS refund_cents, refunded_at FROM payments
    WHERE order_id = o.id AND status = 'refunded' ORDER BY refunded_at DESC LIMIT 1) r ON true`;
