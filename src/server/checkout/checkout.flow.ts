// The checkout flow: where orders and payments meet. The orders service owns the orders (placing, the
// order rows and their states); the payments service owns the payments (intents, the provider); neither
// imports the other. This flow orchestrates them, and is the one owner of:
//  - placing: an order that falls short while holds on its tools have run out lets them go, then tries
//    once more;
//  - holds: an unpaid order whose hold ran out is let go here only (its payments closed at the provider
//    first: a card that went through makes it paid instead), by the hold timer (runtime.ts), a placing that
//    needs the units, or a payment action on that very order. Reads never write;
//  - settlement: a payment the provider says succeeded marks its order paid, or is refunded when the
//    order was let go;
//  - letting an unpaid order go (a delete, an account deletion): its payments are closed first.
import type { OrderInput, CartOrderInput } from '../../lib/schemas.ts';
import { messages } from '../../lib/messages.ts';
import { memoise } from '../caching/cache.ts';
import { conflict, DomainError, notFound, notPossible, unavailable } from '../errors.ts';
import type { OrdersService, PaidOutcome } from '../orders/orders.service.ts';
import type { OrderRow } from '../orders/order-rows.ts';
import { Refused, type LineRefusal } from '../orders/refused.ts';
import type { QuotedPlacing } from '../orders/placing.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { CurrentUser } from '../types.ts';
import type { IntentStatus } from '../ports.ts';

export function checkoutFlow(orders: OrdersService, payments: PaymentsService, now: () => Date) {
  /**
   * Lets one unpaid order past its hold go: its payments closed at the provider, then cancelled with
   * its units back; a payment that went through makes it paid instead; a provider that cannot say now
   * keeps it for the next run. True when the order changed.
   */
  async function expireOne(id: string): Promise<boolean> {
    const closed = await payments.closeOpen(id);
    if (closed.state === 'unsettled') return false;
    if (closed.state === 'succeeded') return (await orders.markPaid(id, closed.intentId, closed.amountCents)) === 'ok';
    return orders.cancelExpired(id);
  }

  /** Every hold that has run out (a batch at a time); concurrent callers share one run. */
  const expireHolds = memoise(async () => {
    try {
      let changed = 0;
      for (const id of await orders.dueHolds()) if (await expireOne(id)) changed++;
      if (changed) orders.released();
      return changed;
    } finally {
      expireHolds.reset();
    }
  });

  /** An order a payment action is about, its hold settled first if it has run out. */
  async function current(id: string): Promise<OrderRow | undefined> {
    const order = await orders.getRow(id);
    if (order?.payment !== 'unpaid' || new Date(order.expires_at) > now()) return order;
    if (await expireOne(id)) orders.released();
    return orders.getRow(id);
  }

  async function place(
    user: CurrentUser,
    cart: CartOrderInput,
    refuse: (r: LineRefusal) => DomainError,
    quote?: QuotedPlacing,
  ): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await orders.placeOnce(user, cart, quote);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        const retry =
          attempt === 1 &&
          error.refusal.toolName !== null &&
          (error.expiredHolds ?? (await orders.expiredHoldsOn(cart.items.map((i) => i.toolId))));
        if (!retry) throw refuse(error.refusal);
        await expireHolds();
      }
    }
  }

  return {
    expireHolds,
    /** When the hold timer should look again (runtime.ts). */
    nextHoldEnd: () => orders.nextHoldEnd(),
    /** The order a payment action is about (create-payment-intent, the sandbox's card, makepayment). */
    orderForPayment: current,

    /** POST /booking: the spec's one tool is a one-line order; its refusals read as they always did. */
    placeOne: (user: CurrentUser, input: OrderInput): Promise<string> =>
      place(
        user,
        {
          items: [{ toolId: input.toolId, quantity: input.quantity }],
          address: input.address,
          phone: input.phone,
          discountCode: input.discountCode,
        },
        (r) => (r.toolName === null ? notFound('Tool') : notPossible(r.message, { quantity: r.message })),
      ),

    /** POST /orders: a cart; a line that cannot be met is named, with the spec's message for it. */
    placeCart: (user: CurrentUser, cart: CartOrderInput): Promise<string> =>
      place(user, cart, (r) =>
        notPossible(r.toolName === null ? r.message : messages.cartLineRefused(r.toolName, r.message), {
          [`items.${r.index}.${r.toolName === null ? 'toolId' : 'quantity'}`]: r.message,
        }),
      ),

    /**
     * An accepted quote (quotes.service.ts): a cart at the quote's prices, above the tools' quote
     * thresholds; `quote.placed` marks the quote accepted in the order's transaction.
     */
    placeQuoted: (user: CurrentUser, cart: CartOrderInput, quote: QuotedPlacing): Promise<string> =>
      place(
        user,
        cart,
        (r) =>
          notPossible(r.toolName === null ? r.message : messages.cartLineRefused(r.toolName, r.message), {
            [`items.${r.index}.${r.toolName === null ? 'toolId' : 'quantity'}`]: r.message,
          }),
        quote,
      ),

    /**
     * A payment the provider says succeeded: its order paid (idempotent), or the money given back when
     * the order was let go meanwhile.
     */
    async settle(intent: IntentStatus & { orderId: string }): Promise<PaidOutcome | 'refunded'> {
      const outcome = await orders.markPaid(intent.orderId, intent.id, intent.amountCents);
      return payments.settle(intent, outcome);
    },

    /**
     * Deletes an order (the buyer's or an admin's; the rules are orders.service's remove). An unpaid
     * order's payments are closed at the provider first: if the card went through meanwhile, the order
     * becomes paid and stays (409), so nobody is charged for an order that is gone.
     */
    async remove(user: CurrentUser, id: string): Promise<void> {
      // Most orders deleted were never paid for: gone in one transaction, which checks who may delete it
      // before anything else, unless a payment of the unpaid order is open.
      if ((await orders.remove(user, id, { unlessPaymentOpen: true })) === 'removed') return;
      const closed = await payments.closeOpen(id);
      if (closed.state === 'succeeded') {
        await orders.markPaid(id, closed.intentId, closed.amountCents);
        throw conflict(messages.orderPaidMeanwhile);
      }
      if (closed.state === 'unsettled') throw unavailable('payment_unsettled', messages.paymentUnsettled);
      await orders.remove(user, id);
    },

    /**
     * The first step of deleting an account, before its transaction: each of the buyer's unpaid orders
     * has its payments closed, as remove() does. A payment that went through makes its order paid (it
     * is then kept, anonymised); one that cannot be settled now stops the deletion (503). Returns the
     * unpaid orders that are ready to go (orders.service's forgetBuyer).
     */
    async closeBuyerPayments(email: string, buyerUid: string): Promise<Set<string>> {
      const ready = new Set<string>();
      for (const id of await orders.unpaidOf(email, buyerUid)) {
        const closed = await payments.closeOpen(id);
        if (closed.state === 'unsettled') throw unavailable('payment_unsettled', messages.paymentUnsettled);
        if (closed.state === 'succeeded') await orders.markPaid(id, closed.intentId, closed.amountCents);
        else ready.add(id);
      }
      return ready;
    },
  };
}
export type CheckoutFlow = ReturnType<typeof checkoutFlow>;
