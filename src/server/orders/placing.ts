// Placing an order: a cart's lines in one transaction (the one-line hot path is one-line-batch.ts), the
// spec's refusals, the unpaid-order limit. Placing runs no hold expiry: the checkout flow does.
import { orderTotalCents } from '../../lib/money.ts';
import { messages } from '../../lib/messages.ts';
import { quantityError } from '../../lib/rules.ts';
import type { CartOrderInput } from '../../lib/schemas.ts';
import { emitLowStock, emitOrdersPlaced } from './order-events.ts';
import type { Queryable } from '../db/client.ts';
import { conflict, notPossible } from '../errors.ts';
import { newId } from '../db/ids.ts';
import { lowStockLevel, pricingOf, quantityRulesOf, type ToolRow } from '../tools/tool-rows.ts';
import { recordMovements } from '../tools/stock-ledger.ts';
import { unitPriceCents } from '../../lib/pricing.ts';
import { breakdownOf, orderTotals } from '../../lib/totals.ts';
import { readTotalsSettings } from '../settings/settings.service.ts';
import { checkDiscount, recordUse } from '../discounts/discounts.service.ts';
import type { CurrentUser } from '../types.ts';
import { metrics } from '../observability/metrics.ts';
import { MAX_ORDER_TOTAL_CENTS } from '../../lib/limits.ts';
import type { OrdersContext } from './context.ts';
import { oneLineBatch } from './one-line-batch.ts';
import { Refused, type LineRefusal } from './refused.ts';

/**
 * An order placed from an accepted quote: its unit prices (by tool id) instead of the price breaks,
 * above the tools' quote thresholds, and `placed` run in the order's transaction (the quote marks
 * itself accepted there, so a quote becomes one order at most; a throw rolls the order back).
 */
export interface QuotedPlacing {
  unitCents: ReadonlyMap<string, number>;
  placed: (tx: Queryable, orderId: string) => Promise<void>;
}

export function orderPlacing(ctx: OrdersContext) {
  const { db, tools, holdMs, now, maxUnpaidOrders, lowStockUnits, eventsWritten } = ctx;
  const { insertOneLine, rehearse } = oneLineBatch(ctx);

  /** Whether an unpaid order past its hold still holds units of one of these tools. */
  async function expiredHoldsOn(toolIds: string[]): Promise<boolean> {
    const rows = await db.query(
      `SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id
       WHERE o.payment = 'unpaid' AND o.expires_at <= $1 AND i.tool_id = ANY($2) LIMIT 1`,
      [now(), toolIds],
    );
    return rows.length > 0;
  }

  /**
   * One transaction: the buyer's unpaid-order count under their lock, then each line's stock taken
   * with a conditional update in tool-id order (two carts sharing tools lock them in the same order,
   * so they never deadlock), then the order and its lines with the database's names and prices. A line
   * that cannot be met throws Refused and everything taken before it is rolled back.
   */
  async function insertOrder(
    user: CurrentUser,
    cart: CartOrderInput,
    quote?: QuotedPlacing,
  ): Promise<string | 'limit'> {
    // A discount code is claimed under its row's lock: such orders take the general path, not the batch.
    if (cart.items.length === 1 && !quote && !cart.discountCode) return insertOneLine(user, cart);
    const id = newId();
    const byToolId = cart.items
      .map((item, index) => ({ ...item, index }))
      .sort((a, b) => (a.toolId < b.toolId ? -1 : 1));
    return db.transaction(async (tx) => {
      // One buyer's orders are placed one at a time, so parallel requests cannot all pass the limit.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`unpaid-orders:${user.email}`]);
      const [{ unpaid }] = await tx.query<{ unpaid: number }>(
        `SELECT count(*)::int AS unpaid FROM orders WHERE email = $1 AND payment = 'unpaid'`,
        [user.email],
      );
      if (unpaid >= maxUnpaidOrders) return 'limit' as const;
      const sold: (ToolRow & { stock_version: number })[] = new Array(cart.items.length);
      for (const line of byToolId) {
        const row = await tools.take(tx, line.toolId, line.quantity, Boolean(quote));
        if (!row) throw new Refused(await refusal(tx, line, Boolean(quote)));
        sold[line.index] = row;
      }
      // Each line at its price break for its quantity (or the quote's price), from the row just locked.
      const lines = cart.items.map((item, i) => ({
        ...item,
        sold: sold[i],
        unitCents: quote?.unitCents.get(item.toolId) ?? unitPriceCents(pricingOf(sold[i]), item.quantity),
      }));
      const subtotalCents = lines.reduce((sum, l) => sum + orderTotalCents(l.quantity, l.unitCents), 0);
      // The code (checked and locked here: a refusal rolls the stock back) and the settings of now.
      const discount = cart.discountCode
        ? await checkDiscount(tx, cart.discountCode, { email: user.email, subtotalCents, now: now() }, true)
        : null;
      const totals = orderTotals(lines, await readTotalsSettings(tx), discount?.rule);
      const { totalCents } = totals;
      // Thrown, not returned: the stock just taken is rolled back.
      if (totalCents > MAX_ORDER_TOTAL_CENTS) {
        throw notPossible(messages.orderTotalTooHigh, {
          [lines.length === 1 ? 'quantity' : 'items']: messages.orderTotalTooHigh,
        });
      }
      const one = lines.length === 1 ? lines[0] : undefined;
      const expiresAt = new Date(now().getTime() + holdMs);
      await tx.query(
        `WITH placed AS (
           INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, total_cents, user_name, email, address, phone,
             expires_at, buyer_uid, stock_version, subtotal_cents, discount_cents, delivery_cents, tax_cents, tax_included,
             vat_rate_hundredths, discount_code)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $19, $20, $21, $22, $23, $24, $25))
         INSERT INTO order_items (order_id, line, tool_id, product_name, unit_price_cents, quantity, stock_version)
         SELECT $1, l.n, l.tool_id, l.product_name, l.unit_price_cents, l.quantity, l.stock_version
         FROM unnest($14::text[], $15::text[], $16::int[], $17::int[], $18::int[])
           WITH ORDINALITY AS l(tool_id, product_name, unit_price_cents, quantity, stock_version, n)`,
        [
          id,
          one ? one.sold.id : null,
          one ? one.sold.name : messages.orderLines(lines.length),
          one ? one.unitCents : totalCents,
          lines.reduce((sum, l) => sum + l.quantity, 0),
          totalCents,
          user.name || user.email,
          user.email,
          cart.address,
          cart.phone,
          expiresAt,
          user.uid,
          one ? one.sold.stock_version : 0,
          lines.map((l) => l.sold.id),
          lines.map((l) => l.sold.name),
          lines.map((l) => l.unitCents),
          lines.map((l) => l.quantity),
          lines.map((l) => l.sold.stock_version),
          totals.subtotalCents,
          totals.discountCents,
          totals.deliveryCents,
          totals.taxCents,
          totals.taxIncluded,
          totals.vatRateHundredths,
          discount?.code ?? null,
        ],
      );
      if (discount) await recordUse(tx, discount.id, id, user.email);
      await emitOrdersPlaced(tx, [
        {
          id,
          by: user.email,
          facts: {
            email: user.email,
            buyerName: user.name || user.email,
            address: cart.address,
            lines: lines.map((l) => ({ productName: l.sold.name, quantity: l.quantity, unitCents: l.unitCents })),
            totalCents,
            breakdown: breakdownOf(totals, discount?.code ?? null),
            expiresAt: expiresAt.toISOString(),
          },
        },
      ]);
      await recordMovements(
        tx,
        lines.map((l) => ({
          toolId: l.sold.id,
          delta: -l.quantity,
          reason: 'sale',
          balance: l.sold.available_quantity,
          orderId: id,
          actor: user.email,
        })),
      );
      await quote?.placed(tx, id);
      await emitLowStock(
        tx,
        lines.map((l) => ({
          id: l.sold.id,
          name: l.sold.name,
          before: l.sold.available_quantity + l.quantity,
          after: l.sold.available_quantity,
          threshold: lowStockLevel(l.sold, lowStockUnits),
        })),
      );
      return id;
    });
  }

  /** Why a line's stock could not be taken, with the spec's message (read under the transaction). */
  async function refusal(
    tx: Queryable,
    line: { toolId: string; quantity: number; index: number },
    quoted: boolean,
  ): Promise<LineRefusal> {
    const [tool] = await tx.query<ToolRow>(
      'SELECT name, minimum_order_quantity, available_quantity, pack_size, quote_above FROM tools WHERE id = $1',
      [line.toolId],
    );
    const rules = tool && { ...quantityRulesOf(tool), quoteAbove: quoted ? null : tool.quote_above };
    const message = rules
      ? (quantityError(line.quantity, rules) ?? messages.quantityAboveAvailable)
      : messages.cartToolGone;
    return { index: line.index, toolId: line.toolId, toolName: tool?.name ?? null, message };
  }

  /**
   * Places an order once: its id, or Refused (a line that cannot be met; nothing was taken), or 409 for
   * a buyer at the unpaid-order limit. Placing runs no hold expiry: the checkout flow decides whether
   * holds that ran out on the order's tools should go first (checkout.flow.ts).
   */
  async function placeOnce(user: CurrentUser, cart: CartOrderInput, quote?: QuotedPlacing): Promise<string> {
    const placed = await insertOrder(user, cart, quote);
    if (placed === 'limit') throw conflict(messages.tooManyUnpaidOrders(maxUnpaidOrders));
    eventsWritten();
    // A one-line order's batch has announced its stock change already.
    if (cart.items.length > 1 || quote)
      tools.invalidate(
        'stock',
        cart.items.map((item) => item.toolId),
      );
    metrics.orderPlaced();
    return placed;
  }

  return { placeOnce, expiredHoldsOn, rehearse };
}
