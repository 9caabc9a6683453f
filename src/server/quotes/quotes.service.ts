// Quote requests (issue 26): a signed-in buyer asks the shop a price for tools and quantities; an admin
// answers with a unit price per line and an expiry; the buyer accepts (one order at those prices, through
// the checkout flow, at most once) or declines. Every step writes its event in the step's transaction.
import type { ListPage, Quote } from '../../lib/entities.ts';
import { MAX_OPEN_QUOTES, MAX_ORDER_TOTAL_CENTS } from '../../lib/limits.ts';
import { messages } from '../../lib/messages.ts';
import { formatCents, toCents } from '../../lib/money.ts';
import { unitPriceCents } from '../../lib/pricing.ts';
import { quoteQuantityError } from '../../lib/rules.ts';
import type { QuoteAccept, QuoteAnswer, QuoteRequest } from '../../lib/schemas.ts';
import { isBuyer } from '../users/user-rules.ts';
import type { CheckoutFlow } from '../checkout/checkout.flow.ts';
import type { Db, Queryable } from '../db/client.ts';
import { emit } from '../events/events.service.ts';
import { conflict, forbidden, notFound, notPossible } from '../errors.ts';
import type { PageAsk } from '../db/paging.ts';
import { newId } from '../db/ids.ts';
import type { ToolsService } from '../tools/tools.service.ts';
import type { CurrentUser } from '../types.ts';
import {
  countRequested,
  insertQuote,
  isExpired,
  listQuotes,
  lockOpenQuotesOf,
  markAccepted,
  markAnswered,
  markDeclined,
  pageQuotes,
  quoteJson,
  quoteTarget,
  readQuote,
  setQuotedPrices,
  type QuoteFilter,
  type QuoteLineRow,
  type QuoteRow,
} from './quotes.sql.ts';

interface QuotesOptions {
  checkout: CheckoutFlow;
  now: () => Date;
  /** Wakes the outbox after a commit that wrote events. */
  eventsWritten?: () => void;
}

/** The lines as the emails show them (the list price, and the shop's once answered). */
const mailLines = (lines: QuoteLineRow[]) =>
  lines.map((l) => ({
    productName: l.product_name,
    quantity: l.quantity,
    listCents: l.list_unit_cents,
    unitCents: l.quoted_unit_cents,
  }));

/** Why a quote cannot be taken further, in the order the buyer should hear it. */
function closedReason(row: QuoteRow, now: Date): string | null {
  if (row.state === 'accepted' || row.state === 'declined') return messages.quoteClosed(row.state);
  if (row.state === 'requested') return messages.quoteNotAnswered;
  return isExpired(row, now) ? messages.quoteExpired : null;
}

export function quotesService(db: Db, tools: ToolsService, { checkout, now, eventsWritten = () => {} }: QuotesOptions) {
  /** A quote the caller may see: its buyer's or, for an admin, any; else 404 (its existence is not told). */
  async function visible(user: CurrentUser, id: string) {
    const quote = await readQuote(db, id);
    if (!quote || (user.role !== 'admin' && !isBuyer(user, quote.row))) throw notFound('Quote');
    return quote;
  }

  /** A quote only its buyer may act on: 404 for others, 403 for an admin who may see it but is not its buyer. */
  async function own(user: CurrentUser, id: string) {
    const quote = await visible(user, id);
    if (!isBuyer(user, quote.row)) throw forbidden('Only the buyer who asked for this quote can do this');
    return quote;
  }

  return {
    /** Stores a request with its lines priced at the list (price-break) price of their quantity; returns its id. */
    async request(user: CurrentUser, input: QuoteRequest): Promise<string> {
      const catalogue = new Map((await tools.list()).map((t) => [t._id, t]));
      const lines = input.items.map((item, i) => {
        const tool = catalogue.get(item.toolId);
        if (!tool) throw notPossible(messages.quoteToolGone, { [`items.${i}.toolId`]: messages.quoteToolGone });
        const error = quoteQuantityError(item.quantity, tool);
        if (error) throw notPossible(messages.cartLineRefused(tool.name, error), { [`items.${i}.quantity`]: error });
        const priced = {
          priceCents: toCents(tool.price),
          priceBreaks: tool.priceBreaks.map((b) => ({ minQuantity: b.minQuantity, priceCents: toCents(b.price) })),
        };
        return {
          toolId: tool._id,
          name: tool.name,
          quantity: item.quantity,
          listCents: unitPriceCents(priced, item.quantity),
        };
      });
      const id = newId();
      await db.transaction(async (tx) => {
        await lockOpenQuotesOf(tx, user.email);
        const open = await countRequested(tx, user.email);
        if (open >= MAX_OPEN_QUOTES) throw conflict(messages.tooManyOpenQuotes(MAX_OPEN_QUOTES));
        await insertQuote(tx, {
          id,
          email: user.email,
          buyerUid: user.uid,
          userName: user.name || user.email,
          note: input.note,
          createdAt: now(),
          lines,
        });
        await emit(tx, {
          type: 'quote.requested',
          subject: id,
          actor: user.email,
          data: {
            email: user.email,
            buyerName: user.name || user.email,
            note: input.note,
            lines: lines.map((l) => ({
              productName: l.name,
              quantity: l.quantity,
              listCents: l.listCents,
              unitCents: null,
            })),
          },
        });
      });
      eventsWritten();
      return id;
    },

    /** The caller's quotes (an admin: everyone's), newest first: all of them, or a page with `ask`. */
    list(user: CurrentUser, state: QuoteFilter['state'], ask?: PageAsk<number>): Promise<Quote[] | ListPage<Quote>> {
      const filter: QuoteFilter = {
        state,
        buyer: user.role === 'admin' ? undefined : { email: user.email, uid: user.uid },
      };
      return ask ? pageQuotes(db, filter, ask, now()) : listQuotes(db, filter, now());
    },

    async get(user: CurrentUser, id: string): Promise<Quote> {
      const { row, lines } = await visible(user, id);
      return quoteJson(row, lines, now());
    },

    /** An admin's prices (one per line's tool, exactly) and expiry; again while not accepted or declined. */
    async answer(admin: CurrentUser, id: string, answer: QuoteAnswer): Promise<Quote> {
      const at = now();
      if (answer.expiresAt <= at) throw notPossible(messages.quoteExpiryPast, { expiresAt: messages.quoteExpiryPast });
      const quote = await db.transaction(async (tx) => {
        const found = await readQuote(tx, id, true);
        if (!found) throw notFound('Quote');
        const { row, lines } = found;
        if (row.state === 'accepted' || row.state === 'declined') throw conflict(messages.quoteClosed(row.state));
        if (lines.some((l) => l.tool_id === null)) throw notPossible(messages.quoteToolGone);
        const prices = new Map(answer.lines.map((l) => [l.toolId, toCents(l.price)]));
        if (
          prices.size !== answer.lines.length ||
          prices.size !== lines.length ||
          lines.some((l) => !prices.has(l.tool_id!))
        )
          throw notPossible(messages.quoteLinesMismatch, { lines: messages.quoteLinesMismatch });
        const priced = lines.map((l) => ({ ...l, quoted_unit_cents: prices.get(l.tool_id!)! }));
        const totalCents = priced.reduce((sum, l) => sum + l.quantity * l.quoted_unit_cents, 0);
        if (totalCents > MAX_ORDER_TOTAL_CENTS)
          throw notPossible(messages.orderTotalTooHigh, { lines: messages.orderTotalTooHigh });
        await setQuotedPrices(tx, id, prices);
        const updated = await markAnswered(tx, id, admin.email, at, answer.expiresAt);
        await emit(tx, {
          type: 'quote.answered',
          subject: id,
          actor: admin.email,
          data: {
            target: quoteTarget(row),
            before: {
              state: row.state,
              total: row.state === 'answered' ? formatCents(quoteJson(row, lines, at).totalCents ?? 0) : null,
            },
            after: { state: 'answered', total: formatCents(totalCents), expiresAt: answer.expiresAt.toISOString() },
            email: row.email,
            buyerName: row.user_name,
            lines: mailLines(priced),
            totalCents,
            expiresAt: answer.expiresAt.toISOString(),
          },
        });
        return quoteJson(updated, priced, at);
      });
      eventsWritten();
      return quote;
    },

    /**
     * Its buyer accepts: one order at the quoted prices (the usual stock, hold and payment rules), in whose
     * transaction the quote becomes accepted only if it still is answered and unexpired, so of two
     * accepts at once exactly one places an order. Returns the order's id.
     */
    async accept(user: CurrentUser, id: string, delivery: QuoteAccept): Promise<string> {
      const { row, lines } = await own(user, id);
      const refusal = closedReason(row, now());
      if (refusal) throw conflict(refusal);
      const gone = lines.findIndex((l) => l.tool_id === null);
      if (gone >= 0) throw notPossible(messages.quoteToolGone, { [`items.${gone}.toolId`]: messages.quoteToolGone });
      const orderId = await checkout.placeQuoted(
        user,
        { items: lines.map((l) => ({ toolId: l.tool_id!, quantity: l.quantity })), ...delivery },
        {
          unitCents: new Map(lines.map((l) => [l.tool_id!, l.quoted_unit_cents!])),
          placed: async (tx: Queryable, orderId: string) => {
            const at = now();
            if (!(await markAccepted(tx, id, orderId, at))) {
              const current = await readQuote(tx, id);
              throw conflict((current && closedReason(current.row, at)) ?? messages.quoteClosed('changed'));
            }
            await emit(tx, {
              type: 'quote.accepted',
              subject: id,
              actor: user.email,
              data: { target: quoteTarget(row), orderId },
            });
          },
        },
      );
      return orderId;
    },

    /** Its buyer declines a quote still open (asked or answered, even past its expiry). */
    async decline(user: CurrentUser, id: string): Promise<Quote> {
      await own(user, id);
      const at = now();
      const quote = await db.transaction(async (tx) => {
        const row = await markDeclined(tx, id);
        if (!row) {
          const current = await readQuote(tx, id);
          throw conflict(messages.quoteClosed(current?.row.state ?? 'changed'));
        }
        await emit(tx, { type: 'quote.declined', subject: id, actor: user.email, data: { target: quoteTarget(row) } });
        const found = await readQuote(tx, id);
        return quoteJson(row, found!.lines, at);
      });
      eventsWritten();
      return quote;
    },
  };
}
export type QuotesService = ReturnType<typeof quotesService>;
