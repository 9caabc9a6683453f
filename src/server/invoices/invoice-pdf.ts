// An invoice or a credit note as a PDF (pdf-lib: pure JavaScript, its standard fonts built in, no browser
// at run time). A4, the seller block from the configuration, the buyer, the lines, the total and the
// payment reference.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatCents } from '../../lib/money.ts';
import { breakdownRows, type Breakdown } from '../../lib/totals.ts';

export interface InvoiceDocument {
  kind: 'invoice' | 'credit note';
  number: string;
  /** The invoice a credit note corrects. */
  correcting?: string;
  issuedAt: string;
  seller: { name: string; address: string; taxId?: string };
  buyer: { name: string; email: string; address: string };
  orderId: string;
  lines: { productName: string; quantity: number; unitCents: number }[];
  /** What was paid (an invoice) or given back (a credit note). */
  totalCents: number;
  /** Subtotal, discount, delivery and VAT above the total (issue 27); older documents have none. */
  breakdown?: Breakdown;
  paymentReference: string;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const INK = rgb(0.12, 0.14, 0.16);
const MUTED = rgb(0.34, 0.38, 0.42);

// The standard fonts speak WinAnsi: a character outside it (a name in another script) is shown as '?'
// rather than failing the whole document.
const winAnsi = (s: string) => s.replace(/[^\u0020-\u007e\u00a0-\u00ff€–—‘’“”•…]/g, '?');

export async function invoicePdf(doc: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const title = doc.kind === 'invoice' ? 'Invoice' : 'Credit note';
  pdf.setTitle(`${title} ${doc.number}`);
  pdf.setAuthor(doc.seller.name);
  pdf.setCreationDate(new Date(doc.issuedAt));
  pdf.setModificationDate(new Date(doc.issuedAt));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);

  let page = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (s: string, x: number, size = 10, font: PDFFont = regular, color = INK) =>
    page.drawText(winAnsi(s), { x, y, size, font, color });
  const right = (s: string, xRight: number, size = 10, font: PDFFont = regular) =>
    page.drawText(winAnsi(s), { x: xRight - font.widthOfTextAtSize(winAnsi(s), size), y, size, font, color: INK });
  const block = (lines: string[], x: number, size = 10) => {
    const top = y;
    for (const line of lines) {
      text(line, x, size);
      y -= size + 4;
    }
    const bottom = y;
    y = top;
    return bottom;
  };

  // Seller (left) and the document's number and date (right).
  text(doc.seller.name, MARGIN, 16, bold);
  right(`${title} ${doc.number}`, A4[0] - MARGIN, 14, bold);
  y -= 22;
  const sellerLines = [...doc.seller.address.split('\n'), ...(doc.seller.taxId ? [`Tax ID: ${doc.seller.taxId}`] : [])];
  const afterSeller = block(sellerLines, MARGIN);
  right(`Date: ${doc.issuedAt.slice(0, 10)}`, A4[0] - MARGIN);
  y -= 14;
  right(`Order: ${doc.orderId}`, A4[0] - MARGIN);
  if (doc.correcting) {
    y -= 14;
    right(`Corrects invoice ${doc.correcting}`, A4[0] - MARGIN);
  }
  y = Math.min(afterSeller, y - 14) - 16;

  text('Bill to', MARGIN, 10, bold, MUTED);
  y -= 14;
  y = block([doc.buyer.name, doc.buyer.email, ...doc.buyer.address.split('\n')], MARGIN) - 16;

  const cols = { qty: 360, unit: 450, total: A4[0] - MARGIN };
  const header = () => {
    text('Tool', MARGIN, 10, bold);
    right('Quantity', cols.qty, 10, bold);
    right('Unit price', cols.unit, 10, bold);
    right('Line total', cols.total, 10, bold);
    y -= 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.5, color: MUTED });
    y -= 14;
  };
  header();
  for (const line of doc.lines) {
    if (y < MARGIN + 80) {
      page = newPage(pdf);
      y = A4[1] - MARGIN;
      header();
    }
    text(truncate(line.productName, regular, 10, cols.qty - MARGIN - 60), MARGIN);
    right(String(line.quantity), cols.qty);
    right(formatCents(line.unitCents), cols.unit);
    right(formatCents(line.quantity * line.unitCents), cols.total);
    y -= 16;
  }
  y -= 4;
  page.drawLine({ start: { x: 300, y: y + 10 }, end: { x: A4[0] - MARGIN, y: y + 10 }, thickness: 0.5, color: MUTED });
  for (const [label, amount] of breakdownRows(doc.breakdown, formatCents)) {
    text(label, 300);
    right(amount, cols.total);
    y -= 15;
  }
  text(doc.kind === 'invoice' ? 'Total paid' : 'Total refunded', 300, 11, bold);
  right(formatCents(doc.totalCents), cols.total, 11, bold);
  y -= 28;
  text(`Payment reference: ${doc.paymentReference}`, MARGIN, 9, regular, MUTED);
  y -= 13;
  text('Prices in US dollars.', MARGIN, 9, regular, MUTED);

  return pdf.save({ useObjectStreams: false });
}

function newPage(pdf: PDFDocument): PDFPage {
  return pdf.addPage(A4);
}

/** The text cut with an ellipsis to fit `width` points. */
function truncate(s: string, font: PDFFont, size: number, width: number): string {
  const safe = winAnsi(s);
  if (font.widthOfTextAtSize(safe, size) <= width) return safe;
  let cut = safe;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
