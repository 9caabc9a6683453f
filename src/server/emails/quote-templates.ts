// The quotes' emails (issue 26), in the one layout of templates.ts: the shop hears of a request, the
// buyer of the shop's answer. Texts the buyer typed (name, note) are escaped in HTML.
import { formatCents } from '../../lib/money.ts';
import { button, escapeHtml, layout, type Rendered, type Shop } from './templates.ts';

export interface MailQuoteLine {
  productName: string;
  quantity: number;
  /** The list (price-break) unit price when asked. */
  listCents: number;
  /** The shop's unit price; null until answered. */
  unitCents: number | null;
}

export interface MailQuote {
  id: string;
  email: string;
  buyerName: string;
  lines: MailQuoteLine[];
}

const ref = (id: string) => id.slice(-8).toUpperCase();
const cell = 'padding:6px 8px;border-bottom:1px solid #e5e7eb';

function quoteTable(lines: MailQuoteLine[], totalCents: number | null): string {
  const priced = totalCents !== null;
  const rows = lines
    .map(
      (l) =>
        `<tr><td style="${cell}">${escapeHtml(l.productName)}</td><td style="${cell};text-align:right">${l.quantity}</td>` +
        `<td style="${cell};text-align:right">${formatCents(l.listCents)}</td>` +
        (priced ? `<td style="${cell};text-align:right;font-weight:bold">${formatCents(l.unitCents ?? 0)}</td>` : '') +
        '</tr>',
    )
    .join('');
  const head = ['Tool', 'Quantity', 'List price', ...(priced ? ['Your price'] : [])]
    .map((h, i) => `<th style="padding:6px 8px;text-align:${i ? 'right' : 'left'}">${h}</th>`)
    .join('');
  const foot = priced
    ? `<tfoot><tr><td colspan="3" style="padding:8px;text-align:right;font-weight:bold">Total</td><td style="padding:8px;text-align:right;font-weight:bold">${formatCents(totalCents)}</td></tr></tfoot>`
    : '';
  return `<table style="border-collapse:collapse;width:100%;font-size:14px"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody>${foot}</table>`;
}

const lineText = (l: MailQuoteLine) =>
  l.unitCents === null
    ? `${l.quantity} x ${l.productName} (list ${formatCents(l.listCents)} each)`
    : `${l.quantity} x ${l.productName} at ${formatCents(l.unitCents)} (list ${formatCents(l.listCents)}) = ${formatCents(l.quantity * l.unitCents)}`;

/** To the shop: a buyer asks for a quote. */
export function shopQuoteRequested(shop: Shop, quote: MailQuote, note: string): Rendered {
  const url = `${shop.siteUrl}/dashboard/quotes`;
  return {
    subject: `Quote request ${ref(quote.id)} from ${quote.buyerName}`,
    text: [
      `${quote.buyerName} <${quote.email}> asks for a quote (${ref(quote.id)}):`,
      ...quote.lines.map(lineText),
      ...(note ? ['', 'Note:', note] : []),
      '',
      `Answer it: ${url}`,
    ].join('\n'),
    html: layout(
      shop,
      `<p><strong>${escapeHtml(quote.buyerName)}</strong> &lt;${escapeHtml(quote.email)}&gt; asks for a quote (<strong>${ref(quote.id)}</strong>):</p>` +
        quoteTable(quote.lines, null) +
        (note
          ? `<blockquote style="margin:12px 0;padding:8px 12px;border-left:3px solid #f5a524;white-space:pre-wrap">${escapeHtml(note)}</blockquote>`
          : '') +
        button(url, 'Answer the quote'),
    ),
  };
}

/** To the buyer: the shop's prices, the total and until when the offer stands. */
export function quoteAnswered(shop: Shop, quote: MailQuote, totalCents: number, expiresAt: string): Rendered {
  const url = `${shop.siteUrl}/dashboard/myquotes`;
  const until = `This offer stands until ${new Date(expiresAt).toUTCString()}.`;
  return {
    subject: `Your quote ${ref(quote.id)}: ${formatCents(totalCents)}`,
    text: [
      `Hello ${quote.buyerName},`,
      '',
      `We answered your quote request ${ref(quote.id)}:`,
      ...quote.lines.map(lineText),
      `Total: ${formatCents(totalCents)}`,
      '',
      until,
      `Accept or decline it: ${url}`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Hello ${escapeHtml(quote.buyerName)},</p><p>We answered your quote request <strong>${ref(quote.id)}</strong>:</p>` +
        `${quoteTable(quote.lines, totalCents)}<p>${escapeHtml(until)}</p>${button(url, 'See your quote')}`,
    ),
  };
}
