// The hot path of placing: one-line orders (POST /booking, a one-tool cart, a purchase rush) placed in
// batches, one transaction of a fixed few statements whatever the batch size.
import { messages } from '../../lib/messages.ts';
import { quantityError } from '../../lib/rules.ts';
import type { CartOrderInput } from '../../lib/schemas.ts';
import { emitLowStock, emitOrdersPlaced } from './order-events.ts';
import { DomainError, notPossible } from '../errors.ts';
import { newId } from '../db/ids.ts';
import { lowStockLevel, pricingOf, quantityRulesOf, type ToolRow } from '../tools/tool-rows.ts';
import { unitPriceCents } from '../../lib/pricing.ts';
import { breakdownOf, orderTotals, type Totals } from '../../lib/totals.ts';
import { SETTINGS_COLUMNS, totalsOf, type SettingsRow } from '../settings/settings.service.ts';
import type { CurrentUser } from '../types.ts';
import { batched } from '../db/batched.ts';
import { MAX_ORDER_TOTAL_CENTS } from '../../lib/limits.ts';
import type { OrdersContext } from './context.ts';
import type { Queryable } from '../db/client.ts';
import { Refused, type LineRefusal } from './refused.ts';

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

/** The rehearsal's rollback: thrown by its transaction, caught by it (rehearse). */
class RolledBack extends Error {}

/**
 * `insertOneLine` places a one-line order through the next batch: its id, or 'limit' (the buyer holds too
 * many unpaid orders). `rehearse` places a batch and rolls it back (see there).
 */
export function oneLineBatch(ctx: OrdersContext) {
  const { db, tools, holdMs, now, maxUnpaidOrders, lowStockUnits, gather } = ctx;

  /**
   * The hot path (POST /booking, a one-tool cart, a purchase rush) is placed in batches, as a database
   * commits in groups: an order that arrives while a batch runs waits for the next one, which places
   * everything that queued meanwhile in one transaction of a fixed few statements, whatever its size. Within a
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
    { maxBatch: MAX_BATCH, gather },
  );

  async function insertOneLine(user: CurrentUser, cart: CartOrderInput): Promise<string | 'limit'> {
    const [{ toolId, quantity }] = cart.items;
    const ask: OneLineAsk = { id: newId(), user, toolId, quantity, address: cart.address, phone: cart.phone };
    const result = await placeOneLine(ask);
    if ('placed' in result) return ask.id;
    if ('limit' in result) return 'limit';
    throw 'refused' in result ? result.refused : result.error;
  }

  // Its statements take arrays (a batch of any size): each would be planned again on every run otherwise.
  const placeBatch = (asks: OneLineAsk[]) =>
    db.transaction((tx) => placeBatchIn(tx, asks, true), { genericPlans: true });

  /**
   * Before a server says it is ready (host/warm-up.ts): a rush of `buyers` made-up buyers on a made-up tool
   * with stock for a quarter of them, placed by the code that places real batches (so the refusals too)
   * and rolled back. The shop's first real rush then runs compiled code and planned statements (on PGlite,
   * PostgreSQL's own code compiled too). Nothing is kept, no event goes out (the events are rolled back
   * with the rest) and no cache is told: only the sequence numbers it drew are gone (gaps in tools.seq,
   * orders.seq and the like, which only keep an order of arrival).
   */
  async function rehearse(buyers: number): Promise<void> {
    const units = Math.ceil(buyers / 4);
    await db
      .transaction(
        async (tx) => {
          const toolId = `rehearsal-${newId()}`;
          await tx.query(
            `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
           VALUES ($1, 'Rehearsal', '', '', 1250, 1, $2)`,
            [toolId, units * 2],
          );
          const asks = Array.from({ length: buyers }, (_, i): OneLineAsk => {
            const email = `rehearsal-${i}@rehearsal.invalid`;
            return {
              id: newId(),
              user: { email, name: '', role: 'user', uid: null },
              toolId,
              quantity: 2,
              address: 'Rehearsal Street 1',
              phone: '01712345678',
            };
          });
          await placeBatchIn(tx, asks);
          // The orders' row-count trigger is deferred to COMMIT, which a rehearsal never reaches: fired here,
          // so its PL/pgSQL (a library PGlite loads on first use) and its statement are ready too.
          await tx.query('SET CONSTRAINTS ALL IMMEDIATE');
          throw new RolledBack();
        },
        { genericPlans: true },
      )
      .catch((error) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  }

  /** `last`: the batch's writes end the transaction (COMMIT goes with them); not for the rehearsal, which rolls back. */
  async function placeBatchIn(tx: Queryable, asks: OneLineAsk[], last = false): Promise<OneLineResult[]> {
    const expiresAt = new Date(now().getTime() + holdMs);
    const emails = [...new Set(asks.map((a) => a.user.email))].sort();
    const limited = Number.isFinite(maxUnpaidOrders);
    const toolIds = [...new Set(asks.map((a) => a.toolId))].sort();
    // Three statements sent together (one round trip on PostgreSQL), run in this order: the buyers' locks,
    // then their unpaid counts (read after the locks are held), then the tools' rows locked in id order.
    const [, counts, rows] = await Promise.all([
      // One buyer's orders are placed one at a time, so parallel requests (or servers) cannot all pass the limit.
      limited && db.kind === 'postgres'
        ? tx.query(
            'SELECT pg_advisory_xact_lock(hashtext(k)) FROM (SELECT k FROM unnest($1::text[]) AS k ORDER BY k) AS keys',
            [emails.map((e) => `unpaid-orders:${e}`)],
          )
        : undefined,
      limited
        ? tx.query<{ email: string; n: number }>(
            `SELECT email, count(*)::int AS n FROM orders WHERE email = ANY($1) AND payment = 'unpaid' GROUP BY email`,
            [emails],
          )
        : [],
      // The settings of now come with the tools (a change applies to orders placed after it); with no tool
      // there is nothing to place, so nothing needs them.
      tx.query<ToolRow & SettingsRow & { stock_version: number }>(
        `SELECT t.id, t.name, t.price_cents, t.minimum_order_quantity, t.available_quantity, t.stock_version, t.price_breaks,
           t.pack_size, t.quote_above, t.low_stock_units, ${SETTINGS_COLUMNS}
         FROM tools t LEFT JOIN shop_settings s ON s.id = 1
         WHERE t.id = ANY($1) ORDER BY t.id FOR UPDATE OF t`,
        [toolIds],
      ),
    ]);
    const unpaid = new Map(counts.map(({ email, n }) => [email, n]));
    const settings = totalsOf(rows[0]);
    const stock = new Map(rows.map((r) => [r.id, { ...r }]));
    const before = new Map(rows.map((r) => [r.id, r.available_quantity]));
    const accepted: {
      ask: OneLineAsk;
      tool: ToolRow & { stock_version: number };
      unitCents: number;
      balance: number;
      totals: Totals;
    }[] = [];
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
    // The batch's writes, and the read of expired holds below, are sent together (one round trip on PostgreSQL).
    const writes: Promise<unknown>[] = [];
    if (accepted.length) {
      const column = <T>(pick: (a: (typeof accepted)[number]) => T) => accepted.map(pick);
      writes.push(
        tx.query(INSERT_BATCH, [
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
        ]),
      );
      writes.push(
        emitOrdersPlaced(
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
        ),
      );
      writes.push(
        emitLowStock(
          tx,
          [...new Set(accepted.map((a) => a.tool))].map((tool) => ({
            id: tool.id,
            name: tool.name,
            before: before.get(tool.id)!,
            after: tool.available_quantity,
            threshold: lowStockLevel(tool, lowStockUnits),
          })),
        ),
      );
    }
    // Units of holds that ran out are for sale: a line short of such a tool is placed again after they go.
    if (last) tx.last?.();
    const [expiredRows] = await Promise.all([
      short.size
        ? tx.query<{ tool_id: string }>(
            `SELECT DISTINCT i.tool_id FROM orders o JOIN order_items i ON i.order_id = o.id
             WHERE o.payment = 'unpaid' AND o.expires_at <= $1 AND i.tool_id = ANY($2)`,
            [now(), [...short]],
          )
        : [],
      ...writes,
    ]);
    const expired = new Set(expiredRows.map((r) => r.tool_id));
    return results.map((r) => ('short' in r ? { refused: new Refused(r.short, expired.has(r.short.toolId)) } : r));
  }

  return { insertOneLine, rehearse };
}
