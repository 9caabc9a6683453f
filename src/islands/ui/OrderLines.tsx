// An order's lines, wherever an order is shown: the spec's one tool reads as before, a cart's lines each
// with their quantity and price.
import type { Order } from '../../lib/entities';
import { formatCents, toCents } from '../../lib/money';

/** Each line as 'quantity x price = line total' (the payment page's and the confirmation's form; the price as placed). */
export function OrderLinesList({ order }: { order: Pick<Order, 'items'> }) {
  return (
    <ul className="divide-y divide-steel-100" aria-label="Order lines">
      {order.items.map((item, i) => (
        <li key={i} className="flex justify-between gap-4 py-2 text-sm" data-testid="order-line">
          <span>{item.productName}</span>
          <span className="tabular-nums">
            {item.quantity} x {formatCents(toCents(item.price))} = {formatCents(item.quantity * toCents(item.price))}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A table's product cell: the tool's name, or for several lines "N tools" and what they are (with
 * `withPrices`, each at its unit price as placed: a price break shows).
 */
export function OrderProduct({
  order,
  withPrices = false,
}: {
  order: Pick<Order, 'items' | 'productName'>;
  withPrices?: boolean;
}) {
  if (order.items.length <= 1) return <>{order.productName}</>;
  // One box: a stacked card's cell lays its children out in a row beside the label.
  return (
    <span className="block">
      {order.productName}
      <ul className="mt-1 text-xs font-normal text-steel-600">
        {order.items.map((item, i) => (
          <li key={i}>
            {item.quantity} × {item.productName}
            {withPrices && <> at {formatCents(toCents(item.price))}</>}
          </li>
        ))}
      </ul>
    </span>
  );
}
