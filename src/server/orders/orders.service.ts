import { trackingLink } from '../../lib/carriers.ts';
import type { ListPage, Order, OrderItem } from '../../lib/entities.ts';
import { orderTotalCents, toDollars } from '../../lib/money.ts';
import { messages } from '../../lib/messages.ts';
import { quantityError } from '../../lib/rules.ts';
import type { CartOrderInput, OrderListQuery } from '../../lib/schemas.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import { emitLowStock, emitOrderEvent, emitOrdersPlaced, factsOf, type BreakdownColumns } from './order-events.ts';
import type { Db, Queryable } from '../db/client.ts';
import { conflict, DomainError, forbidden, invalid, notFound, notPossible } from '../errors.ts';
import { newId } from '../db/ids.ts';
import { listPage, type PageAsk } from '../db/paging.ts';
import { lowStockLevel, pricingOf, quantityRulesOf, type ToolRow, type ToolsService } from '../tools/tools.service.ts';
import { recordMovements } from '../tools/stock-ledger.ts';
import { unitPriceCents } from '../../lib/pricing.ts';
import { breakdownOf, orderTotals, type Totals } from '../../lib/totals.ts';
import { readTotalsSettings } from '../settings/settings.service.ts';
import { checkDiscount, recordUse, releaseUse } from '../discounts/discounts.service.ts';
import { isBuyer } from '../users/user-rules.ts';
import type { CurrentUser } from '../types.ts';
import { batched } from '../db/batched.ts';
import { metrics } from '../observability/metrics.ts';
import { MAX_ORDER_TOTAL_CENTS } from '../../lib/limits.ts';
import { ORDER_REFUND_JOIN } from '../payments/payment-reads.ts';

export interface OrderRow extends BreakdownColumns {
  id: string;
  tool_id: string | null;
  product_name: string;
  unit_price_cents: number;
  quantity: number;
  user_name: string;
  email: string;
  /** The Firebase account that placed it (null for orders made before accounts were recorded). */
  buyer_uid: string | null;
  address: string;
  phone: string;
  payment: 'unpaid' | 'paid' | 'cancelled';
  transaction_id: string | null;
  shipping_status: 'pending' | 'shipped' | 'delivered';
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | Date | null;
  delivered_at: string | Date | null;
  cancel_reason: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  paid_at?: string | Date | null;
  /** Given back by an admin's refunds (bigint in the database). */
  refunded_cents?: number | string;
  /** What the order costs, all lines with delivery and VAT (bigint in the database). */
  total_cents: number | string;
  /** The lines (ORDER_SELECT), in the buyer's order. */
  items: { toolId: string | null; productName: string; priceCents: number; quantity: number }[] | null;
  /** From the order's refunded payment, if any (ORDER_SELECT). */
  refund_id?: string | null;
  refund_cents?: number | null;
  refunded_at?: string | Date | null;
}

export const orderJson = (r: OrderRow): Order => ({
  _id: r.id,
  toolId: r.tool_id,
  productName: r.product_name,
  price: toDollars(r.unit_price_cents),
  totalCents: Number(r.total_cents),
  subtotalCents: Number(r.subtotal_cents ?? r.total_cents),
  discountCents: Number(r.discount_cents ?? 0),
  deliveryCents: Number(r.delivery_cents ?? 0),
  taxCents: Number(r.tax_cents ?? 0),
  taxIncluded: r.tax_included ?? false,
  vatRate: (r.vat_rate_hundredths ?? 0) / 100,
  discountCode: r.discount_code ?? null,
  refundedCents: Number(r.refunded_cents ?? 0),
  items: (r.items ?? []).map((i): OrderItem => ({
    toolId: i.toolId,
    productName: i.productName,
    price: toDollars(i.priceCents),
    quantity: i.quantity,
  })),
  userName: r.user_name,
  email: r.email,
  address: r.address,
  phone: r.phone,
  quantity: r.quantity,
  payment: r.payment,
  transactionId: r.transaction_id,
  shippingStatus: r.shipping_status,
  shipment: r.shipped_at
    ? {
        carrier: r.carrier ?? '',
        trackingNumber: r.tracking_number ?? '',
        trackingUrl: (r.carrier && r.tracking_number && trackingLink(r.carrier, r.tracking_number)) || null,
        shippedAt: new Date(r.shipped_at).toISOString(),
        deliveredAt: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
      }
    : null,
  cancelReason: r.cancel_reason,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  refund: r.refund_id
    ? { id: r.refund_id, amountCents: Number(r.refund_cents), refundedAt: new Date(r.refunded_at!).toISOString() }
    : null,
});

/** An order with its refunded payment (a payment can outlive its order, never the other way round). */
const ORDER_SELECT = `SELECT o.*, r.refund_id, r.refund_cents, r.refunded_at,
  (SELECT json_agg(json_build_object('toolId', i.tool_id, 'productName', i.product_name, 'priceCents', i.unit_price_cents,
    'quantity', i.quantity) ORDER BY i.line) FROM order_items i WHERE i.order_id = o.id) AS items
  FROM orders o
  ${ORDER_REFUND_JOIN}`;

/** One order as the reads show it; with `lock`, its row locked for the caller's transaction. */
export async function readOrder(q: Queryable, id: string, lock = false): Promise<OrderRow | undefined> {
  const [row] = await q.query<OrderRow>(`${ORDER_SELECT} WHERE o.id = $1${lock ? ' FOR UPDATE OF o' : ''}`, [id]);
  return row;
}

/** A line as placed, with the restock its units came from (only then do they go back). */
interface HeldLine {
  tool_id: string | null;
  quantity: number;
  stock_version: number;
}
/** A line of a cart that cannot be met; nothing of the order was taken. */
export interface LineRefusal {
  index: number;
  toolId: string;
  /** null when the tool no longer exists. */
  toolName: string | null;
  message: string;
}
export class Refused extends Error {
  readonly refusal: LineRefusal;
  /** Whether an unpaid order past its hold still holds units of the tool (undefined: not looked). */
  readonly expiredHolds: boolean | undefined;
  constructor(refusal: LineRefusal, expiredHolds?: boolean) {
    super(refusal.message);
    this.refusal = refusal;
    this.expiredHolds = expiredHolds;
  }
}

/** One POST /booking (or a one-tool cart) waiting for its batch. */
interface OneLineAsk {
  id: string;
  user: CurrentUser;
  toolId: string;
  quantity: number;
  address: string;
  phone: string;
}
type OneLineResult = { placed: true } | { limit: true } | { refused: Refused } | { error: DomainError };

/** The most one-line orders placed by one transaction. */
const MAX_BATCH = 500;

/**
 * Takes the stock of a batch's accepted orders (their tools are locked already) and inserts the orders,
 * their lines and their sales in the stock ledger (with the units left after each), in arrival order
 * (orders.seq keeps it).
 */
const INSERT_BATCH = `
  WITH req AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[],
      $10::text[], $11::int[], $13::int[], $14::bigint[], $15::bigint[], $16::bigint[]) WITH ORDINALITY
      AS r(id, tool_id, quantity, product_name, price_cents, user_name, email, address, phone, buyer_uid, stock_version, balance,
        total_cents, delivery_cents, tax_cents, n)),
  taken AS (
    UPDATE tools t SET available_quantity = t.available_quantity - s.units
    FROM (SELECT tool_id, sum(quantity)::int AS units FROM req GROUP BY tool_id) s WHERE t.id = s.tool_id),
  placed AS (
    INSERT INTO orders (id, tool_id, product_name, unit_price_cents, quantity, total_cents, user_name, email, address, phone,
      expires_at, buyer_uid, stock_version, subtotal_cents, discount_cents, delivery_cents, tax_cents, tax_included, vat_rate_hundredths)
    SELECT id, tool_id, product_name, price_cents, quantity, total_cents, user_name, email, address, phone,
      $12, buyer_uid, stock_version, price_cents::bigint * quantity, 0, delivery_cents, tax_cents, $17, $18 FROM req ORDER BY n),
  ledger AS (
    INSERT INTO stock_ledger (tool_id, delta, reason, order_id, actor, balance)
    SELECT tool_id, -quantity, 'sale', id, email, balance FROM req ORDER BY n)
  INSERT INTO order_items (order_id, line, tool_id, product_name, unit_price_cents, quantity, stock_version)
  SELECT id, 1, tool_id, product_name, price_cents, quantity, stock_version FROM req`;

/**
 * An order placed from an accepted quote: its unit prices (by tool id) instead of the price breaks,
 * above the tools' quote thresholds, and `placed` run in the order's transaction (the quote marks
 * itself accepted there, so a quote becomes one order at most; a throw rolls the order back).
 */
export interface QuotedPlacing {
  unitCents: ReadonlyMap<string, number>;
  placed: (tx: Queryable, orderId: string) => Promise<void>;
}

/** Where a page of Manage All Orders ends: the last order's number, or its total (cents, as text) and number. */
export type OrderCursor = number | [totalCents: string, seq: number];

/** How the audit log names an order: its short reference and its buyer. */
export const orderTarget = (order: { id: string; email: string }) =>
  `Order ${order.id.slice(-8).toUpperCase()} of ${order.email}`;

/** What marking an order paid came to: 'ok' (now or before, with this payment), or why not. */
export type PaidOutcome = 'ok' | 'missing' | 'cancelled' | 'other' | 'amount';

export function ordersService(
  db: Db,
  tools: ToolsService,
  holdMs: number,
  now: () => Date,
  options: {
    /** Unpaid orders one buyer may hold at once. */
    maxUnpaidOrders?: number;
    /** Issues the invoice in the payment's transaction. */
    invoices?: InvoicesService;
    /** LOW_STOCK_UNITS (undefined: each tool's minimum order × 2). */
    lowStockUnits?: number;
    /** Called after a transaction that wrote events commits (the outbox delivers them at once). */
    eventsWritten?: () => void;
  } = {},
) {
  const { maxUnpaidOrders = Infinity, invoices, lowStockUnits, eventsWritten = () => {} } = options;

  /**
   * Cancels one unpaid order whose hold ran out and gives its units back, with its event, in one
   * transaction; false when it is no longer unpaid. The checkout flow closes its payments first.
   */
  async function cancelExpired(id: string): Promise<boolean> {
    const cancelled = await db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: string }>(
        `UPDATE orders SET payment = 'cancelled', cancel_reason = $2 WHERE id = $1 AND payment = 'unpaid' RETURNING id`,
        [id, messages.holdExpired],
      );
      if (!row) return false;
      const order = (await getRow(tx, id))!;
      await giveBackLines(tx, order, null);
      await releaseUse(tx, id);
      await emitOrderEvent(tx, 'order.cancelled', id, null, factsOf(order), { reason: 'hold expired' });
      return true;
    });
    if (cancelled) metrics.orderCancelled();
    return cancelled;
  }

  /**
   * Marks an order paid with the provider's intent id, only for the exact amount owed.
   * Idempotent: the same intent again is 'ok'; a different one on a paid order is 'other'.
   */
  async function markPaid(id: string, intentId: string, amountCents: number): Promise<PaidOutcome> {
    return db
      .transaction(async (tx) => {
        const order = await getRow(tx, id, true);
        if (!order) return 'missing';
        if (order.payment === 'paid') return order.transaction_id === intentId ? 'ok' : 'other';
        if (order.payment === 'cancelled') return 'cancelled';
        if (Number(order.total_cents) !== amountCents) return 'amount';
        await tx.query(`UPDATE orders SET payment = 'paid', transaction_id = $2, paid_at = now() WHERE id = $1`, [
          id,
          intentId,
        ]);
        // The invoice's number is taken here: a payment rolled back gives it back, so numbers have no gaps.
        const facts = factsOf(order);
        const invoiceNumber = invoices
          ? await invoices.issue(tx, {
              kind: 'invoice',
              orderId: id,
              buyer: { name: facts.buyerName, email: facts.email, address: facts.address },
              lines: facts.lines,
              totalCents: facts.totalCents,
              breakdown: facts.breakdown,
              paymentReference: intentId,
              at: now(),
            })
          : null;
        await emitOrderEvent(tx, 'order.paid', id, facts.email, facts, { transactionId: intentId, invoiceNumber });
        return 'newly paid' as const;
      })
      .then((outcome) => {
        if (outcome !== 'newly paid') return outcome;
        metrics.orderPaid();
        eventsWritten();
        return 'ok';
      });
  }

  /**
   * An unpaid order's units back to stock (`order` as read under its lock); `actor`: who let it go (null:
   * its hold ran out). Returns the tools the order held units of (a deleted tool's line has none).
   */
  async function giveBackLines(tx: Queryable, order: OrderRow, actor: string | null): Promise<string[]> {
    const touched = (order.items ?? []).flatMap((item) => (item.toolId ? [item.toolId] : []));
    await tools.giveBackOrder(tx, order.id, touched, actor);
    return touched;
  }

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

  /**
   * The hot path (POST /booking, a one-tool cart, a purchase rush) is placed in batches, as a database
   * commits in groups: an order that arrives while a batch runs waits for the next one, which places
   * everything that queued meanwhile in one transaction of four statements, whatever its size. Within a
   * batch the orders are judged one by one in arrival order, exactly as separate transactions would
   * (the buyer's unpaid count, then the spec's quantity rules against the stock left, then the total),
   * under the same locks: the buyers' advisory locks (PostgreSQL; in a fixed order), then the tools'
   * rows in id order, as every multi-line order takes them. No hold-expiry sweep runs here.
   */
  const placeOneLine = batched(
    async (asks: OneLineAsk[]) => {
      const results = await placeBatch(asks);
      // One announcement for the batch's stock change, not one per order (each is a NOTIFY on PostgreSQL),
      // naming the tools it took from: caches read those again, not the whole catalogue.
      const taken = new Set(asks.filter((_, i) => 'placed' in results[i]).map((ask) => ask.toolId));
      if (taken.size) tools.invalidate('stock', [...taken]);
      return results;
    },
    { maxBatch: MAX_BATCH },
  );

  async function insertOneLine(user: CurrentUser, cart: CartOrderInput): Promise<string | 'limit'> {
    const [{ toolId, quantity }] = cart.items;
    const ask: OneLineAsk = { id: newId(), user, toolId, quantity, address: cart.address, phone: cart.phone };
    const result = await placeOneLine(ask);
    if ('placed' in result) return ask.id;
    if ('limit' in result) return 'limit';
    throw 'refused' in result ? result.refused : result.error;
  }

  async function placeBatch(asks: OneLineAsk[]): Promise<OneLineResult[]> {
    const expiresAt = new Date(now().getTime() + holdMs);
    return db.transaction(async (tx) => {
      const emails = [...new Set(asks.map((a) => a.user.email))].sort();
      const unpaid = new Map<string, number>();
      if (Number.isFinite(maxUnpaidOrders)) {
        // One buyer's orders are placed one at a time, so parallel requests (or servers) cannot all pass the limit.
        if (db.kind === 'postgres') {
          await tx.query(
            'SELECT pg_advisory_xact_lock(hashtext(k)) FROM (SELECT k FROM unnest($1::text[]) AS k ORDER BY k) AS keys',
            [emails.map((e) => `unpaid-orders:${e}`)],
          );
        }
        const counts = await tx.query<{ email: string; n: number }>(
          `SELECT email, count(*)::int AS n FROM orders WHERE email = ANY($1) AND payment = 'unpaid' GROUP BY email`,
          [emails],
        );
        for (const { email, n } of counts) unpaid.set(email, n);
      }
      const toolIds = [...new Set(asks.map((a) => a.toolId))].sort();
      const rows = await tx.query<ToolRow & { stock_version: number }>(
        `SELECT id, name, price_cents, minimum_order_quantity, available_quantity, stock_version, price_breaks, pack_size, quote_above,
           low_stock_units FROM tools
         WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
        [toolIds],
      );
      const stock = new Map(rows.map((r) => [r.id, { ...r }]));
      const before = new Map(rows.map((r) => [r.id, r.available_quantity]));
      const accepted: {
        ask: OneLineAsk;
        tool: ToolRow & { stock_version: number };
        unitCents: number;
        balance: number;
        totals: Totals;
      }[] = [];
      // The settings of now, read in the batch's transaction (a change applies to orders placed after it).
      const settings = await readTotalsSettings(tx);
      const short = new Set<string>();
      const results = asks.map((ask): OneLineResult | { short: LineRefusal } => {
        const held = unpaid.get(ask.user.email) ?? 0;
        if (held >= maxUnpaidOrders) return { limit: true };
        const tool = stock.get(ask.toolId);
        if (!tool)
          return {
            refused: new Refused({ index: 0, toolId: ask.toolId, toolName: null, message: messages.cartToolGone }),
          };
        const message = quantityError(ask.quantity, quantityRulesOf(tool));
        if (message) {
          const refusal = { index: 0, toolId: ask.toolId, toolName: tool.name, message };
          if (message !== messages.quantityAboveAvailable) return { refused: new Refused(refusal, false) };
          short.add(ask.toolId);
          return { short: refusal };
        }
        const unitCents = unitPriceCents(pricingOf(tool), ask.quantity);
        const totals = orderTotals([{ quantity: ask.quantity, unitCents }], settings);
        if (totals.totalCents > MAX_ORDER_TOTAL_CENTS) {
          return { error: notPossible(messages.orderTotalTooHigh, { quantity: messages.orderTotalTooHigh }) };
        }
        tool.available_quantity -= ask.quantity;
        unpaid.set(ask.user.email, held + 1);
        accepted.push({ ask, tool, unitCents, balance: tool.available_quantity, totals });
        return { placed: true };
      });
      if (accepted.length) {
        const column = <T>(pick: (a: (typeof accepted)[number]) => T) => accepted.map(pick);
        await tx.query(INSERT_BATCH, [
          column((a) => a.ask.id),
          column((a) => a.tool.id),
          column((a) => a.ask.quantity),
          column((a) => a.tool.name),
          column((a) => a.unitCents),
          column((a) => a.ask.user.name || a.ask.user.email),
          column((a) => a.ask.user.email),
          column((a) => a.ask.address),
          column((a) => a.ask.phone),
          column((a) => a.ask.user.uid),
          column((a) => a.tool.stock_version),
          expiresAt,
          column((a) => a.balance),
          column((a) => a.totals.totalCents),
          column((a) => a.totals.deliveryCents),
          column((a) => a.totals.taxCents),
          settings.pricesIncludeVat,
          settings.vatRateHundredths,
        ]);
        await emitOrdersPlaced(
          tx,
          accepted.map(({ ask, tool, unitCents, totals }) => ({
            id: ask.id,
            by: ask.user.email,
            facts: {
              email: ask.user.email,
              buyerName: ask.user.name || ask.user.email,
              address: ask.address,
              lines: [{ productName: tool.name, quantity: ask.quantity, unitCents }],
              totalCents: totals.totalCents,
              breakdown: breakdownOf(totals, null),
              expiresAt: expiresAt.toISOString(),
            },
          })),
        );
        await emitLowStock(
          tx,
          [...new Set(accepted.map((a) => a.tool))].map((tool) => ({
            id: tool.id,
            name: tool.name,
            before: before.get(tool.id)!,
            after: tool.available_quantity,
            threshold: lowStockLevel(tool, lowStockUnits),
          })),
        );
      }
      // Units of holds that ran out are for sale: a line short of such a tool is placed again after they go.
      const expired = short.size
        ? new Set(
            (
              await tx.query<{ tool_id: string }>(
                `SELECT DISTINCT i.tool_id FROM orders o JOIN order_items i ON i.order_id = o.id
                 WHERE o.payment = 'unpaid' AND o.expires_at <= $1 AND i.tool_id = ANY($2)`,
                [now(), [...short]],
              )
            ).map((r) => r.tool_id),
          )
        : new Set<string>();
      return results.map((r) => ('short' in r ? { refused: new Refused(r.short, expired.has(r.short.toolId)) } : r));
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

  const getRow = readOrder;

  return {
    getRow: (id: string) => getRow(db, id),
    placeOnce,
    expiredHoldsOn,
    cancelExpired,

    /** Unpaid orders whose hold has run out, the longest past first (a batch for the checkout flow). */
    async dueHolds(limit = 200): Promise<string[]> {
      const due = await db.query<{ id: string }>(
        `SELECT id FROM orders WHERE payment = 'unpaid' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
        [now(), limit],
      );
      return due.map((r) => r.id);
    },

    /** When the next unpaid order's hold runs out (orders_unpaid_expiry_idx), or null with none. */
    async nextHoldEnd(): Promise<Date | null> {
      const [row] = await db.query<{ at: string | Date | null }>(
        `SELECT min(expires_at) AS at FROM orders WHERE payment = 'unpaid'`,
      );
      return row?.at ? new Date(row.at) : null;
    },

    /** After holds were let go: the stock changed, and events wait for the outbox. */
    released() {
      tools.invalidate();
      eventsWritten();
    },

    /** All orders, an email's, or (with buyerUid) only those that Firebase account placed under that email. */
    async list(email?: string, buyerUid?: string | null): Promise<Order[]> {
      const rows = email
        ? buyerUid !== undefined
          ? await db.query<OrderRow>(
              `${ORDER_SELECT} WHERE o.email = $1 AND o.buyer_uid IS NOT DISTINCT FROM $2 ORDER BY o.seq DESC`,
              [email, buyerUid],
            )
          : await db.query<OrderRow>(`${ORDER_SELECT} WHERE o.email = $1 ORDER BY o.seq DESC`, [email])
        : await db.query<OrderRow>(`${ORDER_SELECT} ORDER BY o.seq DESC`);
      return rows.map(orderJson);
    },

    /**
     * One page of list()'s order (newest first) after the order numbered `after`, and the list's total:
     * an index range either way (orders.seq, or orders_email_idx for one buyer), and for all orders the
     * kept count (migration 8), since counting a million rows would take longer than the page.
     */
    async page({ limit, after }: PageAsk<number>, email?: string, buyerUid?: string | null): Promise<ListPage<Order>> {
      const params: unknown[] = [];
      const filters: string[] = [];
      if (email) {
        params.push(email);
        filters.push(`o.email = $${params.length}`);
        // = and IS NULL rather than IS NOT DISTINCT FROM, which no index serves (orders_buyer_idx).
        if (buyerUid === null) filters.push('o.buyer_uid IS NULL');
        else if (buyerUid !== undefined) filters.push(`o.buyer_uid = $${params.push(buyerUid)}`);
      }
      const [{ total }] = email
        ? await db.query<{ total: number }>(
            `SELECT count(*)::int AS total FROM orders o WHERE ${filters.join(' AND ')}`,
            params,
          )
        : await db.query<{ total: number }>(
            `SELECT coalesce(sum(n), 0)::int AS total FROM row_counts WHERE name = 'orders'`,
          );
      const where = after === undefined ? filters : [...filters, `o.seq < $${params.push(after)}`];
      const rows = await db.query<OrderRow & { seq: number }>(
        `${ORDER_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY o.seq DESC LIMIT $${params.push(limit + 1)}`,
        params,
      );
      return listPage(rows, limit, total, (r) => r.seq, orderJson);
    },

    /**
     * Manage All Orders' view: a page of the orders that match the search and filters, in the asked
     * order, and how many match. The cursor is the last row's sort key (seq, or total then seq), so a
     * page never repeats or skips an order whatever is placed meanwhile.
     */
    async find(ask: OrderListQuery, after?: OrderCursor): Promise<ListPage<Order>> {
      const params: unknown[] = [];
      const filters: string[] = [];
      const q = ask.q?.trim();
      if (q) {
        const like = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        filters.push(
          `(o.id = $${params.push(q.toLowerCase())} OR o.email LIKE $${params.push(like)} OR lower(o.user_name) LIKE $${params.length})`,
        );
      }
      if (ask.payment) filters.push(`o.payment = $${params.push(ask.payment)}`);
      if (ask.shipping) filters.push(`o.payment = 'paid' AND o.shipping_status = $${params.push(ask.shipping)}`);
      if (ask.from) filters.push(`o.created_at >= $${params.push(`${ask.from}T00:00:00Z`)}::timestamptz`);
      if (ask.to) filters.push(`o.created_at < $${params.push(`${ask.to}T00:00:00Z`)}::timestamptz + interval '1 day'`);
      const [{ total }] = filters.length
        ? await db.query<{ total: number }>(
            `SELECT count(*)::int AS total FROM orders o WHERE ${filters.join(' AND ')}`,
            params,
          )
        : await db.query<{ total: number }>(
            `SELECT coalesce(sum(n), 0)::int AS total FROM row_counts WHERE name = 'orders'`,
          );
      const byTotal = ask.sort === 'total-desc' || ask.sort === 'total-asc';
      const down = ask.sort === 'newest' || ask.sort === 'total-desc';
      const cmp = down ? '<' : '>';
      const dir = down ? 'DESC' : 'ASC';
      const where = [...filters];
      if (after !== undefined) {
        if (byTotal && Array.isArray(after))
          where.push(`(o.total_cents, o.seq) ${cmp} ($${params.push(after[0])}::bigint, $${params.push(after[1])})`);
        else if (!byTotal && typeof after === 'number') where.push(`o.seq ${cmp} $${params.push(after)}`);
        else throw invalid('cursor is not valid', { cursor: 'cursor is not valid' });
      }
      const order = byTotal ? `o.total_cents ${dir}, o.seq ${dir}` : `o.seq ${dir}`;
      const rows = await db.query<OrderRow & { seq: number }>(
        `${ORDER_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT $${params.push(ask.limit + 1)}`,
        params,
      );
      return listPage(
        rows,
        ask.limit,
        total,
        (r): OrderCursor => (byTotal ? [String(r.total_cents), r.seq] : r.seq),
        orderJson,
      );
    },

    /**
     * Deletes an unpaid (or cancelled) order; an unpaid one gives its units back. A paid order is never
     * deleted, by its buyer or an admin (409): it stays in the shop's books. The checkout flow closes an
     * unpaid order's payments at the provider before calling this (checkout.flow.ts remove).
     */
    async remove(user: CurrentUser, id: string): Promise<void> {
      let touched: string[] = [];
      const outcome = await db.transaction(async (tx) => {
        touched = [];
        const order = await getRow(tx, id, true);
        if (!order) return 'missing';
        const isAdmin = user.role === 'admin';
        if (!isAdmin && !isBuyer(user, order)) return 'forbidden';
        // A sale is a record: not the buyer, not an admin, nobody erases it (a refund cancels it).
        if (order.payment === 'paid') return 'paid';
        // Lines first: deleting the order deletes them.
        if (order.payment === 'unpaid') {
          touched = await giveBackLines(tx, order, user.email);
          await emitOrderEvent(tx, 'order.cancelled', id, user.email, factsOf(order), { reason: 'deleted' });
        }
        await tx.query('DELETE FROM orders WHERE id = $1', [id]);
        return 'ok';
      });
      if (outcome === 'missing') throw notFound('Order');
      if (outcome === 'forbidden') throw forbidden();
      if (outcome === 'paid') throw conflict(messages.paidOrderKept);
      if (touched.length) tools.invalidate('stock', touched);
      eventsWritten();
    },

    /** The buyer's unpaid orders (orders_unpaid_buyer_idx; at most MAX_UNPAID_ORDERS of them). */
    async unpaidOf(email: string, buyerUid: string): Promise<string[]> {
      const unpaid = await db.query<{ id: string }>(
        `SELECT id FROM orders WHERE email = $1 AND buyer_uid = $2 AND payment = 'unpaid' ORDER BY id`,
        [email, buyerUid],
      );
      return unpaid.map((r) => r.id);
    },

    /**
     * Inside an account deletion's transaction, under the buyer's lock (placing takes it too, so no
     * order appears meanwhile): the buyer's unpaid orders give their units back and go, with the
     * cancelled ones nobody paid for. Every order that stays (paid, or cancelled and refunded) keeps its
     * lines and money for the shop's books, but not the buyer's name, address or phone. Set-based, so
     * a buyer with 10,000 orders costs a few statements. 'changed': an unpaid order that
     * the checkout flow's closeBuyerPayments did not see (placed since); nothing is changed then.
     */
    async forgetBuyer(tx: Queryable, email: string, buyerUid: string, ready: Set<string>): Promise<'ok' | 'changed'> {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`unpaid-orders:${email}`]);
      const unpaid = await tx.query<{ id: string }>(
        `SELECT id FROM orders WHERE email = $1 AND buyer_uid = $2 AND payment = 'unpaid' ORDER BY id FOR UPDATE`,
        [email, buyerUid],
      );
      if (unpaid.some((o) => !ready.has(o.id))) return 'changed';
      const ids = unpaid.map((o) => o.id);
      if (ids.length) {
        // Every line of every such order, in tool-id order (as every writer locks tools).
        const lines = await tx.query<HeldLine>(
          `SELECT tool_id, sum(quantity)::int AS quantity, stock_version FROM order_items WHERE order_id = ANY($1)
           GROUP BY tool_id, stock_version ORDER BY tool_id, stock_version`,
          [ids],
        );
        for (const line of lines)
          await tools.giveBack(tx, line.tool_id, line.quantity, line.stock_version, null, email);
        for (const order of await tx.query<OrderRow>(`${ORDER_SELECT} WHERE o.id = ANY($1)`, [ids]))
          await emitOrderEvent(tx, 'order.cancelled', order.id, email, factsOf(order), { reason: 'account deleted' });
      }
      await tx.query(
        `DELETE FROM orders WHERE id = ANY($1) OR id IN (
           SELECT o.id FROM orders o ${ORDER_REFUND_JOIN}
           WHERE o.email = $2 AND o.buyer_uid = $3 AND o.payment = 'cancelled' AND r.refund_id IS NULL)`,
        [ids, email, buyerUid],
      );
      await tx.query(`UPDATE orders SET user_name = $3, address = $3, phone = '' WHERE email = $1 AND buyer_uid = $2`, [
        email,
        buyerUid,
        messages.deletedCustomer,
      ]);
      return 'ok';
    },

    /**
     * The buyer's orders as My Orders lists them (newest first), `size` at a time, each page one range
     * of orders_buyer_idx: an export of 10,000 orders never holds more than one page.
     */
    async *pagesOf(email: string, buyerUid: string, size: number): AsyncGenerator<Order[]> {
      let after: number | null = null;
      for (;;) {
        const rows: (OrderRow & { seq: number })[] = await db.query<OrderRow & { seq: number }>(
          `${ORDER_SELECT} WHERE o.email = $1 AND o.buyer_uid = $2${after === null ? '' : ' AND o.seq < $4'}
           ORDER BY o.seq DESC LIMIT $3`,
          after === null ? [email, buyerUid, size] : [email, buyerUid, size, after],
        );
        if (rows.length) yield rows.map(orderJson);
        if (rows.length < size) return;
        after = rows[rows.length - 1].seq;
      }
    },

    markPaid,
  };
}
export type OrdersService = ReturnType<typeof ordersService>;
