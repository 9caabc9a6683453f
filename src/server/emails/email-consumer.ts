// The outbox's email consumer: turns each event into its emails (the buyer's, the shop's), records them
// once (emails.service: one row per event, kind and recipient) and sends what has not gone yet. Run
// again for the same event (a failed send, a restart), it makes no second row and resends nothing sent.
import type { Db } from '../db/client.ts';
import type { Consumer } from '../events/outbox.ts';
import type { StoredEvent } from '../events/events.service.ts';
import type { OrderFacts } from '../orders/order-events.ts';
import type { EmailsService, OutgoingMail } from './emails.service.ts';
import { quoteAnswered, shopQuoteRequested, type MailQuoteLine } from './quote-templates.ts';
import {
  holdExpired,
  orderDelivered,
  orderPlaced,
  orderRefunded,
  orderShipped,
  paymentReceived,
  shopContact,
  shopLowStock,
  shopOrderPaid,
  type MailOrder,
  type Shop,
} from './templates.ts';

export interface EmailConsumerOptions {
  shop: Shop;
  /** Where the shop is told of paid orders, messages and low stock (none: those emails are not made). */
  shopEmail?: string;
}

/** The emails one event makes. */
export function mailsFor(event: StoredEvent, { shop, shopEmail }: EmailConsumerOptions): OutgoingMail[] {
  const data = event.data;
  const toShop = (mail: Omit<OutgoingMail, 'to'>): OutgoingMail[] => (shopEmail ? [{ ...mail, to: shopEmail }] : []);
  if (event.type === 'contact.received') {
    const message = data as { name: string; email: string; message: string };
    return toShop({ kind: 'shop-contact', rendered: shopContact(shop, message) });
  }
  if (event.type === 'stock.low') {
    const tool = data as { name: string; availableQuantity: number; threshold: number };
    return toShop({ kind: 'shop-low-stock', rendered: shopLowStock(shop, tool) });
  }
  if (event.type === 'quote.requested' || event.type === 'quote.answered') {
    const facts = data as {
      email: string;
      buyerName: string;
      note?: string;
      lines: MailQuoteLine[];
      totalCents?: number;
      expiresAt?: string;
    };
    const quote = { id: event.subject, email: facts.email, buyerName: facts.buyerName, lines: facts.lines };
    if (event.type === 'quote.requested')
      return toShop({ kind: 'shop-quote-requested', rendered: shopQuoteRequested(shop, quote, facts.note ?? '') });
    return [
      {
        kind: 'quote-answered',
        to: facts.email,
        rendered: quoteAnswered(shop, quote, facts.totalCents ?? 0, facts.expiresAt ?? ''),
      },
    ];
  }
  if (!event.type.startsWith('order.')) return [];
  const facts = data as unknown as OrderFacts & Record<string, unknown>;
  const order: MailOrder = {
    id: event.subject,
    buyerName: facts.buyerName,
    lines: facts.lines,
    totalCents: facts.totalCents,
    breakdown: facts.breakdown,
    address: facts.address,
    expiresAt: facts.expiresAt,
  };
  const buyer = (
    kind: string,
    rendered: OutgoingMail['rendered'],
    attachments?: OutgoingMail['attachments'],
  ): OutgoingMail[] => [{ kind, to: facts.email, rendered, attachments }];
  switch (event.type) {
    case 'order.placed':
      return buyer('order-placed', orderPlaced(shop, order, new Date(event.at)));
    case 'order.paid': {
      const invoiceNumber = facts.invoiceNumber as string | null;
      return [
        ...buyer(
          'payment-received',
          paymentReceived(shop, order, invoiceNumber ?? '', String(facts.transactionId)),
          invoiceNumber ? [{ document: 'invoice', number: invoiceNumber }] : [],
        ),
        ...toShop({ kind: 'shop-order-paid', rendered: shopOrderPaid(shop, order, facts.email) }),
      ];
    }
    case 'order.shipped':
      return buyer(
        'order-shipped',
        orderShipped(shop, order, facts.carrier as string | null, facts.trackingNumber as string | null),
      );
    case 'order.delivered':
      return buyer('order-delivered', orderDelivered(shop, order));
    case 'order.refunded': {
      const creditNote = facts.creditNoteNumber as string;
      return buyer('order-refunded', orderRefunded(shop, order, Number(facts.amountCents), creditNote), [
        { document: 'credit note', number: creditNote },
      ]);
    }
    case 'order.cancelled':
      // A buyer who deleted their own order (or account) knows; a hold that ran out is news.
      return facts.reason === 'hold expired' ? buyer('hold-expired', holdExpired(shop, order)) : [];
    default:
      return [];
  }
}

export function emailConsumer(db: Db, emails: EmailsService, options: EmailConsumerOptions): Consumer {
  return {
    name: 'email',
    // A batch of events costs one statement with no SMTP (record, kept), or two (record, read back) plus one
    // per email sent by SMTP, so a rush's emails do not queue a few statements per order in front of the next
    // buyers.
    async handle(events) {
      await emails.record(
        db,
        events.flatMap((event) => mailsFor(event, options).map((mail) => ({ eventSeq: event.seq, mail }))),
      );
      return emails.deliver(events.map((event) => event.seq));
    },
  };
}
