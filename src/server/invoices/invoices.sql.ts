// The statements over invoices and invoice_series. invoices.service.ts owns the rules: the series' names,
// the numbers' format and each document's content.
import type { Queryable } from '../db/client.ts';
import type { InvoiceDocument } from './invoice-pdf.ts';

export interface InvoiceRow {
  number: string;
  kind: string;
  order_id: string;
  amount_cents: number | string;
  issued_at: string | Date;
  document: unknown;
}

const COLUMNS = 'number, kind, order_id, amount_cents, issued_at, document';

/**
 * The series' next number (1 for a new series). The upsert locks the series row until commit or rollback,
 * so two documents never share a number and a rolled-back one gives its number back.
 */
export const takeNumber = async (tx: Queryable, series: string) =>
  (
    await tx.query<{ last: number }>(
      `INSERT INTO invoice_series (series, last) VALUES ($1, 1)
     ON CONFLICT (series) DO UPDATE SET last = invoice_series.last + 1 RETURNING last`,
      [series],
    )
  )[0].last;

export const insertInvoice = (
  tx: Queryable,
  number: string,
  kind: InvoiceDocument['kind'],
  orderId: string,
  amountCents: number,
  issuedAt: Date,
  document: InvoiceDocument,
) =>
  tx.query(
    `INSERT INTO invoices (number, kind, order_id, amount_cents, issued_at, document) VALUES ($1, $2, $3, $4, $5, $6)`,
    [number, kind, orderId, amountCents, issuedAt, JSON.stringify(document)],
  );

/** An order's invoice and credit notes, in the order they were issued. */
export const selectInvoicesOf = (db: Queryable, orderId: string) =>
  db.query<InvoiceRow>(`SELECT ${COLUMNS} FROM invoices WHERE order_id = $1 ORDER BY issued_at, kind DESC, number`, [
    orderId,
  ]);

export const selectInvoice = async (db: Queryable, number: string) =>
  (await db.query<InvoiceRow>(`SELECT ${COLUMNS} FROM invoices WHERE number = $1`, [number]))[0] as
    InvoiceRow | undefined;
