// The store's emails: each a subject, a plain-text part and an HTML part (inline styles, which mail
// clients keep), rendered from plain data. Every text a customer or an admin typed is escaped in HTML.
// Links are absolute, on PUBLIC_SITE_URL.
import { trackingLink } from '../../lib/carriers.ts';
import { formatCents } from '../../lib/money.ts';
import { breakdownRows, type Breakdown } from '../../lib/totals.ts';

export interface MailLine {
  productName: string;
  quantity: number;
  unitCents: number;
}

export interface MailOrder {
  id: string;
  buyerName: string;
  lines: MailLine[];
  totalCents: number;
  /** Subtotal, discount, delivery and VAT (issue 27); events written before it have none. */
  breakdown?: Breakdown;
  address: string;
  /** When an unpaid order's hold runs out. */
  expiresAt: string;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

export interface Shop {
  name: string;
  siteUrl: string;
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const lineText = (l: MailLine) =>
  `${l.quantity} x ${l.productName} at ${formatCents(l.unitCents)} = ${formatCents(l.quantity * l.unitCents)}`;

/** The amounts above the total, one text line each (none for a plain total). */
const breakdownText = (order: MailOrder) =>
  breakdownRows(order.breakdown, formatCents).map(([label, amount]) => `${label}: ${amount}`);

function linesTable(order: MailOrder): string {
  const rows = order.lines
    .map(
      (l) =>
        `<tr><td style="padding:6px 8px;border-bottom:1px solid #e5e7eb">${escapeHtml(l.productName)}</td>` +
        `<td style="padding:6px 8px;border-bottom:1px solid #e5e7eb;text-align:right">${l.quantity}</td>` +
        `<td style="padding:6px 8px;border-bottom:1px solid #e5e7eb;text-align:right">${formatCents(l.unitCents)}</td>` +
        `<td style="padding:6px 8px;border-bottom:1px solid #e5e7eb;text-align:right">${formatCents(l.quantity * l.unitCents)}</td></tr>`,
    )
    .join('');
  return (
    `<table style="border-collapse:collapse;width:100%;font-size:14px"><thead><tr>` +
    `<th style="text-align:left;padding:6px 8px">Tool</th><th style="text-align:right;padding:6px 8px">Quantity</th>` +
    `<th style="text-align:right;padding:6px 8px">Unit price</th><th style="text-align:right;padding:6px 8px">Line total</th></tr></thead>` +
    `<tbody>${rows}</tbody><tfoot>` +
    breakdownRows(order.breakdown, formatCents)
      .map(
        ([label, amount]) =>
          `<tr><td colspan="3" style="padding:4px 8px;text-align:right">${escapeHtml(label)}</td><td style="padding:4px 8px;text-align:right">${amount}</td></tr>`,
      )
      .join('') +
    `<tr><td colspan="3" style="padding:8px;text-align:right;font-weight:bold">Total</td>` +
    `<td style="padding:8px;text-align:right;font-weight:bold">${formatCents(order.totalCents)}</td></tr></tfoot></table>`
  );
}

/** The one layout: the shop's name as a header, the body, a footer line. `body` is trusted HTML. */
export function layout(shop: Shop, body: string): string {
  return (
    `<!doctype html><html><body style="margin:0;background:#f6f7f8;font-family:Arial,Helvetica,sans-serif;color:#1f2328">` +
    `<div style="max-width:600px;margin:0 auto;background:#ffffff">` +
    `<div style="background:#1f2328;color:#ffffff;padding:16px 24px;font-size:18px;font-weight:bold">${escapeHtml(shop.name)}</div>` +
    `<div style="padding:24px;font-size:15px;line-height:1.5">${body}</div>` +
    `<div style="padding:16px 24px;font-size:12px;color:#57606a;border-top:1px solid #e5e7eb">${escapeHtml(shop.name)} · <a href="${escapeHtml(shop.siteUrl)}" style="color:#57606a">${escapeHtml(shop.siteUrl)}</a></div>` +
    `</div></body></html>`
  );
}

export const button = (href: string, label: string) =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#f5a524;color:#1f2328;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`;

const orderUrl = (shop: Shop, id: string) => `${shop.siteUrl}/dashboard/orders/${id}`;
const ref = (id: string) => id.slice(-8).toUpperCase();

function minutesLeft(expiresAt: string, now: Date): number {
  return Math.max(0, Math.round((Date.parse(expiresAt) - now.getTime()) / 60_000));
}

export function orderPlaced(shop: Shop, order: MailOrder, now = new Date()): Rendered {
  const payUrl = `${shop.siteUrl}/dashboard/payment/${order.id}`;
  const left = minutesLeft(order.expiresAt, now);
  const hold = `Your order holds its units for ${left} minutes: please pay by ${new Date(order.expiresAt).toUTCString()}.`;
  return {
    subject: `Order ${ref(order.id)} placed: ${formatCents(order.totalCents)} to pay`,
    text: [
      `Hello ${order.buyerName},`,
      '',
      `Thank you for your order ${ref(order.id)}.`,
      ...order.lines.map(lineText),
      ...breakdownText(order),
      `Total: ${formatCents(order.totalCents)}`,
      '',
      hold,
      `Pay now: ${payUrl}`,
      '',
      `Ships to: ${order.address}`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Hello ${escapeHtml(order.buyerName)},</p><p>Thank you for your order <strong>${ref(order.id)}</strong>.</p>${linesTable(order)}` +
        `<p>${escapeHtml(hold)}</p>${button(payUrl, 'Pay now')}<p style="color:#57606a">Ships to: ${escapeHtml(order.address)}</p>`,
    ),
  };
}

export function paymentReceived(shop: Shop, order: MailOrder, invoiceNumber: string, transactionId: string): Rendered {
  return {
    subject: `Payment received for order ${ref(order.id)}: invoice ${invoiceNumber}`,
    text: [
      `Hello ${order.buyerName},`,
      '',
      `We received your payment of ${formatCents(order.totalCents)} for order ${ref(order.id)} (reference ${transactionId}).`,
      ...order.lines.map(lineText),
      ...breakdownText(order),
      `Total paid: ${formatCents(order.totalCents)}`,
      '',
      `Your invoice ${invoiceNumber} is attached. We will tell you when the order ships.`,
      `Your order: ${orderUrl(shop, order.id)}`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Hello ${escapeHtml(order.buyerName)},</p><p>We received your payment for order <strong>${ref(order.id)}</strong> (reference ${escapeHtml(transactionId)}).</p>` +
        `${linesTable(order)}<p>Your invoice <strong>${escapeHtml(invoiceNumber)}</strong> is attached. We will tell you when the order ships.</p>${button(orderUrl(shop, order.id), 'See your order')}`,
    ),
  };
}

/** The shipping email; the spec's ship call gives no carrier or tracking number, and then none is named. */
export function orderShipped(
  shop: Shop,
  order: MailOrder,
  carrier: string | null,
  trackingNumber: string | null,
): Rendered {
  const link = carrier && trackingNumber ? trackingLink(carrier, trackingNumber) : undefined;
  const how = carrier && trackingNumber ? ` with ${carrier}, tracking number ${trackingNumber}` : '';
  const howHtml =
    carrier && trackingNumber
      ? ` with ${escapeHtml(carrier)}, tracking number <strong>${escapeHtml(trackingNumber)}</strong>`
      : '';
  return {
    subject: `Order ${ref(order.id)} has shipped`,
    text: [
      `Hello ${order.buyerName},`,
      '',
      `Your order ${ref(order.id)} is on its way${how}.`,
      ...(link ? [`Track it: ${link}`] : []),
      `Your order: ${orderUrl(shop, order.id)}`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Hello ${escapeHtml(order.buyerName)},</p><p>Your order <strong>${ref(order.id)}</strong> is on its way${howHtml}.</p>` +
        `${link ? button(link, 'Track your parcel') : ''}<p><a href="${escapeHtml(orderUrl(shop, order.id))}">See your order</a></p>`,
    ),
  };
}

export function orderDelivered(shop: Shop, order: MailOrder): Rendered {
  return {
    subject: `Order ${ref(order.id)} was delivered`,
    text: [
      `Hello ${order.buyerName},`,
      '',
      `Your order ${ref(order.id)} was delivered. Thank you for buying from ${shop.name}.`,
      `Your order: ${orderUrl(shop, order.id)}`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Hello ${escapeHtml(order.buyerName)},</p><p>Your order <strong>${ref(order.id)}</strong> was delivered. Thank you for buying from ${escapeHtml(shop.name)}.</p>${button(orderUrl(shop, order.id), 'See your order')}`,
    ),
  };
}

export function orderRefunded(shop: Shop, order: MailOrder, amountCents: number, creditNoteNumber: string): Rendered {
  const partial = amountCents < order.totalCents;
  return {
    subject: `Refund of ${formatCents(amountCents)} for order ${ref(order.id)}`,
    text: [
      `Hello ${order.buyerName},`,
      '',
      `We refunded ${formatCents(amountCents)}${partial ? ` of the ${formatCents(order.totalCents)} you paid` : ''} for order ${ref(order.id)}. It reaches your card in 5–10 business days.`,
      `Your credit note ${creditNoteNumber} is attached.`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Hello ${escapeHtml(order.buyerName)},</p><p>We refunded <strong>${formatCents(amountCents)}</strong>${partial ? ` of the ${formatCents(order.totalCents)} you paid` : ''} for order <strong>${ref(order.id)}</strong>. It reaches your card in 5–10 business days.</p>` +
        `<p>Your credit note <strong>${escapeHtml(creditNoteNumber)}</strong> is attached.</p>`,
    ),
  };
}

export function holdExpired(shop: Shop, order: MailOrder): Rendered {
  return {
    subject: `Order ${ref(order.id)} was cancelled: it was not paid in time`,
    text: [
      `Hello ${order.buyerName},`,
      '',
      `Your order ${ref(order.id)} was not paid in time, so it was cancelled and its units went back to stock. Nothing was charged.`,
      ...order.lines.map(lineText),
      `You can order again at ${shop.siteUrl}/tools`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Hello ${escapeHtml(order.buyerName)},</p><p>Your order <strong>${ref(order.id)}</strong> was not paid in time, so it was cancelled and its units went back to stock. Nothing was charged.</p>${linesTable(order)}${button(`${shop.siteUrl}/tools`, 'Order again')}`,
    ),
  };
}

export function shopOrderPaid(shop: Shop, order: MailOrder, buyerEmail: string): Rendered {
  return {
    subject: `Paid order ${ref(order.id)}: ${formatCents(order.totalCents)} from ${order.buyerName}`,
    text: [
      `Order ${ref(order.id)} was paid by ${order.buyerName} <${buyerEmail}>.`,
      ...order.lines.map(lineText),
      ...breakdownText(order),
      `Total: ${formatCents(order.totalCents)}`,
      `Ship to: ${order.address}`,
      `Open it: ${orderUrl(shop, order.id)}`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>Order <strong>${ref(order.id)}</strong> was paid by ${escapeHtml(order.buyerName)} &lt;${escapeHtml(buyerEmail)}&gt;.</p>${linesTable(order)}<p>Ship to: ${escapeHtml(order.address)}</p>${button(orderUrl(shop, order.id), 'Open the order')}`,
    ),
  };
}

export function shopContact(shop: Shop, message: { name: string; email: string; message: string }): Rendered {
  return {
    subject: `Message from ${message.name} through Get In Touch`,
    text: [
      `${message.name} <${message.email}> wrote:`,
      '',
      message.message,
      '',
      `All messages: ${shop.siteUrl}/dashboard/messages`,
    ].join('\n'),
    html: layout(
      shop,
      `<p><strong>${escapeHtml(message.name)}</strong> &lt;${escapeHtml(message.email)}&gt; wrote:</p><blockquote style="margin:0;padding:8px 12px;border-left:3px solid #f5a524;white-space:pre-wrap">${escapeHtml(message.message)}</blockquote>` +
        button(`${shop.siteUrl}/dashboard/messages`, 'All messages'),
    ),
  };
}

export function shopLowStock(
  shop: Shop,
  tool: { name: string; availableQuantity: number; threshold: number },
): Rendered {
  return {
    subject: `Low stock: ${tool.name} (${tool.availableQuantity} left)`,
    text: [
      `A sale took ${tool.name} below ${tool.threshold} units: ${tool.availableQuantity} left.`,
      `Restock it: ${shop.siteUrl}/dashboard/allproduct`,
    ].join('\n'),
    html: layout(
      shop,
      `<p>A sale took <strong>${escapeHtml(tool.name)}</strong> below ${tool.threshold} units: <strong>${tool.availableQuantity}</strong> left.</p>${button(`${shop.siteUrl}/dashboard/allproduct`, 'Restock it')}`,
    ),
  };
}
