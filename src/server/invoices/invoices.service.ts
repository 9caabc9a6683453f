// Invoices (issued when an order is paid) and credit notes (when it is refunded): numbered per series
// and year with no gaps, e.g. INV-2026-000042 and CN-2026-000003. The number is taken in the
// transaction that records the payment or the refund, so a rolled-back one gives its number back.
// Each is kept with its whole content as issued (seller, buyer, lines): a later change of the shop's
// address, a tool's name or the buyer's account never rewrites an issued invoice.
import type { Queryable } from '../db/client.ts';
import type { InvoiceDocument } from './invoice-pdf.ts';
import { insertInvoice, selectInvoice, selectInvoicesOf, takeNumber, type InvoiceRow } from './invoices.sql.ts';

export interface Seller {
  name: string;
  address: string;
  taxId?: string;
}

export interface IssuedInvoice {
  number: string;
  kind: InvoiceDocument['kind'];
  orderId: string;
  amountCents: number;
  issuedAt: string;
  document: InvoiceDocument;
}

const PREFIX = { invoice: 'INV', 'credit note': 'CN' } as const;

/** The next number of a series, taken under the series row's lock (released at commit or rollback). */
async function nextNumber(tx: Queryable, kind: InvoiceDocument['kind'], year: number): Promise<string> {
  const series = `${PREFIX[kind]}-${year}`;
  const last = await takeNumber(tx, series);
  return `${series}-${String(last).padStart(6, '0')}`;
}

const invoiceJson = (r: InvoiceRow): IssuedInvoice => ({
  number: r.number,
  kind: r.kind as InvoiceDocument['kind'],
  orderId: r.order_id,
  amountCents: Number(r.amount_cents),
  issuedAt: new Date(r.issued_at).toISOString(),
  document: (typeof r.document === 'string' ? JSON.parse(r.document) : r.document) as InvoiceDocument,
});

export function invoicesService(seller: Seller) {
  return {
    /**
     * Issues an invoice or a credit note inside the caller's transaction (the payment's or the refund's)
     * and returns its number.
     */
    async issue(
      tx: Queryable,
      issue: Omit<InvoiceDocument, 'number' | 'issuedAt' | 'seller'> & { at: Date },
    ): Promise<string> {
      const number = await nextNumber(tx, issue.kind, issue.at.getUTCFullYear());
      const { at, ...rest } = issue;
      const document: InvoiceDocument = { ...rest, number, issuedAt: at.toISOString(), seller };
      await insertInvoice(tx, number, issue.kind, issue.orderId, issue.totalCents, at, document);
      return number;
    },

    /** An order's invoice and credit notes, in the order they were issued. */
    async forOrder(db: Queryable, orderId: string): Promise<IssuedInvoice[]> {
      return (await selectInvoicesOf(db, orderId)).map(invoiceJson);
    },

    async byNumber(db: Queryable, number: string): Promise<IssuedInvoice | undefined> {
      const row = await selectInvoice(db, number);
      return row && invoiceJson(row);
    },

    // pdf-lib (~10 MiB resident) loads with the first invoice asked for, not with every server.
    pdf: async (invoice: IssuedInvoice): Promise<Uint8Array> =>
      (await import('./invoice-pdf.ts')).invoicePdf(invoice.document),
  };
}
export type InvoicesService = ReturnType<typeof invoicesService>;
