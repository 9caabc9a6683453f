// Issue 25, after the sale: each step of an order writes its event in the change's transaction; the
// outbox turns events into emails (kept here: no SMTP); payment issues the invoice (PDF for the buyer
// or an admin); ship takes a carrier and tracking number, deliver follows it, each only from the right
// state; the order's history tells it all; the shop hears of low stock; the Emails screen's calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestRuntime, type TestRuntime } from './harness';
import { ADDRESS, PHONE, expectApiError, makeTool, payOrder, placeOrder } from './helpers';
import { pdfText } from './pdf-text';

let runtime: TestRuntime;
let admin: string;
let buyer: string;
let other: string;
const BUYER = 'after.sale@test.example';

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { SHOP_EMAIL: 'shop@test.example', SHOP_TAX_ID: 'BIN-0042' } });
  admin = await runtime.tokenFor(ADMIN);
  buyer = await runtime.tokenFor(BUYER, 'Ada Buyer');
  other = await runtime.tokenFor('someone.else@test.example');
});
afterAll(() => runtime.close());

interface EmailRow {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  state: string;
  attempts: number;
  lastError: string | null;
  attachments: { document: string; number: string }[];
}

/** The emails made for one order (outbox run first), oldest first. */
async function emailsAbout(orderId: string): Promise<EmailRow[]> {
  await runtime.outbox.run();
  const rows = await runtime.db.query<{ id: string }>(
    `SELECT m.id FROM emails m JOIN events e ON e.seq = m.event_seq WHERE e.subject = $1 ORDER BY m.seq`,
    [orderId],
  );
  return Promise.all(rows.map(async (r) => (await runtime.emails.get(r.id)) as unknown as EmailRow));
}

const ship = (id: string, token: string | null, json?: unknown) =>
  runtime.request('PUT', `/api/booking/ship/${id}`, { token, json });
const deliver = (id: string, token: string | null) => runtime.request('PUT', `/api/booking/deliver/${id}`, { token });

describe('an order from placed to delivered', () => {
  let tool: string;
  let orderId: string;

  beforeAll(async () => {
    tool = await makeTool(runtime, admin, {
      name: 'Sledge Hammer 10 lb',
      price: 42.5,
      minimumOrderQuantity: 2,
      availableQuantity: 100,
    });
    orderId = await placeOrder(runtime, buyer, tool, 4);
  });

  it('placing writes an order.placed event with the order, and the buyer gets an email with the lines, total and a link to pay', async () => {
    const [event] = await runtime.db.query<{ type: string; actor: string; data: { totalCents: number } }>(
      `SELECT type, actor, data FROM events WHERE subject = $1`,
      [orderId],
    );
    expect(event).toMatchObject({ type: 'order.placed', actor: BUYER, data: { totalCents: 17_000 } });
    const [mail] = await emailsAbout(orderId);
    expect(mail).toMatchObject({ kind: 'order-placed', recipient: BUYER, state: 'kept' });
    expect(mail.text).toContain('4 x Sledge Hammer 10 lb at $42.50 = $170.00');
    expect(mail.text).toContain('$170.00');
    expect(mail.text).toContain(`/dashboard/payment/${orderId}`);
  });

  it('the invoice is a 409 while unpaid, and nobody but the buyer and admins may ask', async () => {
    expectApiError(await runtime.request('GET', `/api/booking/${orderId}/invoice`, { token: buyer }), 409);
    expect((await runtime.request('GET', `/api/booking/${orderId}/invoice`, { token: other })).status).toBe(403);
    expect((await runtime.request('GET', `/api/booking/${orderId}/invoice`)).status).toBe(401);
    expect((await runtime.request('GET', `/api/booking/${'f'.repeat(24)}/invoice`, { token: admin })).status).toBe(404);
  });

  it('ship and deliver refuse an unpaid order with 409 and say why', async () => {
    const res = await ship(orderId, admin, { carrier: 'DHL', trackingNumber: 'JD0146000' });
    expectApiError(res, 409);
    expect(res.data.error.message).toBe('Only paid orders can be shipped');
    expect((await deliver(orderId, admin)).data.error.message).toBe('Only shipped orders can be marked delivered');
  });

  it('payment issues the invoice in its transaction: the receipt carries the PDF, the shop hears of the sale', async () => {
    const transactionId = await payOrder(runtime, buyer, orderId);
    const mails = await emailsAbout(orderId);
    const receipt = mails.find((m) => m.kind === 'payment-received')!;
    const year = new Date().getUTCFullYear();
    expect(receipt.attachments).toEqual([{ document: 'invoice', number: `INV-${year}-000001` }]);
    expect(receipt.text).toContain(transactionId);
    expect(mails.find((m) => m.kind === 'shop-order-paid')?.recipient).toBe('shop@test.example');

    for (const token of [buyer, admin]) {
      const res = await runtime.request('GET', `/api/booking/${orderId}/invoice`, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toContain(`INV-${year}-000001.pdf`);
    }
    const pdf = await runtime.app.request(`/api/booking/${orderId}/invoice`, {
      headers: { authorization: `Bearer ${buyer}` },
    });
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()));
    for (const part of [`INV-${year}-000001`, 'BIN-0042', 'Ada Buyer', 'Sledge Hammer 10 lb', '$170.00', transactionId])
      expect(text).toContain(part);
  });

  it('only admins ship and deliver; bad shipping details are 400 with the field', async () => {
    expect((await ship(orderId, buyer, { carrier: 'DHL', trackingNumber: 'X1' })).status).toBe(403);
    expect((await ship(orderId, null, { carrier: 'DHL', trackingNumber: 'X1' })).status).toBe(401);
    expect((await deliver(orderId, buyer)).status).toBe(403);
    const bad = await ship(orderId, admin, { carrier: '', trackingNumber: 'bad<script>' });
    expectApiError(bad, 400);
    expect(Object.keys(bad.data.error.fields ?? {})).toEqual(expect.arrayContaining(['carrier', 'trackingNumber']));
  });

  it('ships with a carrier and a tracking number (linked for known carriers), once; then delivers, once', async () => {
    const shipped = await ship(orderId, admin, { carrier: 'DHL', trackingNumber: 'JD0146000' });
    expect(shipped.status).toBe(200);
    expect(shipped.data.order.shipment).toMatchObject({
      carrier: 'DHL',
      trackingNumber: 'JD0146000',
      deliveredAt: null,
    });
    expect(shipped.data.order.shipment.trackingUrl).toContain('dhl.com');
    expect((await ship(orderId, admin, { carrier: 'UPS', trackingNumber: '1Z999' })).data.error.message).toBe(
      'This order was shipped already',
    );

    const mails = await emailsAbout(orderId);
    const shippedMail = mails.find((m) => m.kind === 'order-shipped')!;
    expect(shippedMail.text).toContain('DHL, tracking number JD0146000');
    expect(shippedMail.text).toContain('https://www.dhl.com/');

    expect((await deliver(orderId, admin)).data.order.shippingStatus).toBe('delivered');
    expectApiError(await deliver(orderId, admin), 409);
    expect((await emailsAbout(orderId)).map((m) => m.kind)).toEqual([
      'order-placed',
      'payment-received',
      'shop-order-paid',
      'order-shipped',
      'order-delivered',
    ]);
  });

  it('GET /booking/{id} tells the history in order, who did each step, the shipment and the invoice', async () => {
    const res = await runtime.request('GET', `/api/booking/${orderId}`, { token: buyer });
    expect(res.status).toBe(200);
    expect(res.data.history.map((s: { status: string }) => s.status)).toEqual([
      'placed',
      'paid',
      'shipped',
      'delivered',
    ]);
    expect(res.data.history.map((s: { by?: string }) => s.by)).toEqual([BUYER, BUYER, ADMIN, ADMIN]);
    const times = res.data.history.map((s: { at: string }) => Date.parse(s.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(res.data.shipment).toMatchObject({ carrier: 'DHL', trackingNumber: 'JD0146000' });
    expect(res.data.shipment.deliveredAt).toBeTruthy();
    expect(res.data.invoices).toEqual([expect.objectContaining({ kind: 'invoice', amountCents: 17_000 })]);
    expect((await runtime.request('GET', `/api/booking/${orderId}`, { token: other })).status).toBe(403);
  });

  it("the spec's ship call with no body still ships a paid order (with no tracking)", async () => {
    const id = await placeOrder(runtime, buyer, tool, 2);
    await payOrder(runtime, buyer, id);
    const res = await runtime.request('PUT', `/api/booking/ship/${id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    expect(res.data.order.shipment).toMatchObject({ carrier: '', trackingNumber: '', trackingUrl: null });
    const mail = (await emailsAbout(id)).find((m) => m.kind === 'order-shipped')!;
    expect(mail.text).toContain('is on its way.');
  });
});

describe('cancellations and stock', () => {
  it('a hold that runs out cancels the order, with an event by nobody and an email to the buyer', async () => {
    const tool = await makeTool(runtime, admin, { availableQuantity: 50 });
    const id = await placeOrder(runtime, buyer, tool, 3);
    runtime.advance(runtime.deps.config.orderHoldMs + 60_000);
    await runtime.checkout.expireHolds();
    const history = (await runtime.request('GET', `/api/booking/${id}`, { token: buyer })).data.history;
    expect(history.map((s: { status: string }) => s.status)).toEqual(['placed', 'cancelled']);
    expect(history[1].by).toBeUndefined();
    expect((await emailsAbout(id)).map((m) => m.kind)).toEqual(['order-placed', 'hold-expired']);
  });

  it('a buyer deleting an unpaid order writes order.cancelled, and no email (they know)', async () => {
    const tool = await makeTool(runtime, admin, { availableQuantity: 50 });
    const id = await placeOrder(runtime, buyer, tool, 3);
    expect((await runtime.request('DELETE', `/api/booking/dlt/${id}`, { token: buyer })).status).toBe(200);
    const types = await runtime.db.query<{ type: string; actor: string }>(
      `SELECT type, actor FROM events WHERE subject = $1 ORDER BY seq`,
      [id],
    );
    expect(types).toEqual([
      { type: 'order.placed', actor: BUYER },
      { type: 'order.cancelled', actor: BUYER },
    ]);
    expect((await emailsAbout(id)).map((m) => m.kind)).toEqual(['order-placed']);
  });

  it('a sale that takes a tool below twice its minimum order tells the shop, once', async () => {
    const tool = await makeTool(runtime, admin, {
      name: 'Low Stock Chisel',
      minimumOrderQuantity: 5,
      availableQuantity: 14,
    });
    await placeOrder(runtime, buyer, tool, 5); // 9 left: below 10
    await placeOrder(runtime, buyer, tool, 5); // 4 left: already below
    await runtime.outbox.run();
    const low = await runtime.db.query<{ subject: string; text_body: string; recipient: string }>(
      `SELECT m.subject, m.text_body, m.recipient FROM emails m WHERE m.kind = 'shop-low-stock' AND m.subject LIKE '%Low Stock Chisel%'`,
    );
    expect(low).toHaveLength(1);
    expect(low[0].recipient).toBe('shop@test.example');
    expect(low[0].subject).toBe('Low stock: Low Stock Chisel (9 left)');
  });
});

describe("the shop's emails", () => {
  it("a 'Get In Touch' message is emailed to the shop, escaped, once", async () => {
    const res = await runtime.request('POST', '/api/contact', {
      json: { name: 'Vera <b>Visitor</b>', email: 'vera@example.com', message: 'Do you ship 500 hammers to Sylhet?' },
      headers: { 'x-test-ip': 'contact-mail' },
    });
    expect(res.status).toBe(201);
    await runtime.outbox.run();
    await runtime.outbox.run();
    const mails = await runtime.db.query<{ recipient: string; subject: string; html_body: string }>(
      `SELECT recipient, subject, html_body FROM emails WHERE kind = 'shop-contact' AND text_body LIKE '%Sylhet%'`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].recipient).toBe('shop@test.example');
    expect(mails[0].html_body).toContain('Vera &#60;b&#62;Visitor&#60;/b&#62;');
  });
});

describe('the Emails screen (admin)', () => {
  it('lists every email newest first, paged; Resend keeps it again without SMTP; admins only', async () => {
    await runtime.outbox.run();
    const page = await runtime.request('GET', '/api/emails?limit=2', { token: admin });
    expect(page.status).toBe(200);
    expect(page.data.items).toHaveLength(2);
    expect(page.data.total).toBeGreaterThan(5);
    expect(page.data.nextCursor).toBeTruthy();
    const first = page.data.items[0];
    const resent = await runtime.request('POST', `/api/emails/${first.id}/resend`, { token: admin });
    expect(resent.status).toBe(200);
    expect(resent.data).toMatchObject({ id: first.id, state: 'kept' });
    expect(resent.data.attempts).toBe(first.attempts + 1);
    expect((await runtime.request('GET', '/api/emails', { token: buyer })).status).toBe(403);
    expect((await runtime.request('POST', `/api/emails/${first.id}/resend`, { token: buyer })).status).toBe(403);
    expect((await runtime.request('POST', `/api/emails/${'a'.repeat(24)}/resend`, { token: admin })).status).toBe(404);
  });
});

describe('emails without SMTP', () => {
  it('are written kept; one left unsent (failed or pending while SMTP was set) is kept when its event comes again, a sent one is left', async () => {
    const tool = await makeTool(runtime, admin, { minimumOrderQuantity: 1, availableQuantity: 100 });
    const [failedOrder, sentOrder] = [
      await placeOrder(runtime, buyer, tool, 1),
      await placeOrder(runtime, buyer, tool, 1),
    ];
    const [failed] = await emailsAbout(failedOrder);
    const [sent] = await emailsAbout(sentOrder);
    expect([failed.state, sent.state]).toEqual(['kept', 'kept']);
    // As a store with SMTP left them: one failed, one sent; then both events are due again (a retry).
    await runtime.db.query(`UPDATE emails SET state = 'failed', last_error = 'the mail server is away' WHERE id = $1`, [
      failed.id,
    ]);
    await runtime.db.query(`UPDATE emails SET state = 'sent', sent_at = now() WHERE id = $1`, [sent.id]);
    await runtime.db.query(
      `UPDATE event_deliveries d SET state = 'pending', next_at = now(), lease_until = NULL
         FROM emails m WHERE m.id = ANY($1) AND d.event_seq = m.event_seq AND d.consumer = 'email'`,
      [[failed.id, sent.id]],
    );
    const [again] = await emailsAbout(failedOrder);
    const [stillSent] = await emailsAbout(sentOrder);
    expect(again).toMatchObject({ id: failed.id, state: 'kept', lastError: null, attempts: 2 });
    expect(stillSent).toMatchObject({ id: sent.id, state: 'sent', attempts: 1 });
    expect((await emailsAbout(failedOrder)).length).toBe(1);
  });
});

describe('checkout totals in the emails and the invoice (issue 27)', () => {
  const setSettings = async (json: Record<string, unknown>) =>
    expect((await runtime.request('PUT', '/api/settings', { token: admin, json })).status).toBe(200);
  afterAll(() => setSettings({ deliveryFlat: 0, freeDeliveryOver: null, vatRate: 0, pricesIncludeVat: false }));

  it('an order with delivery $5 and VAT 15% shows them in its emails and on its invoice, above the total', async () => {
    await setSettings({ deliveryFlat: 5, freeDeliveryOver: null, vatRate: 15, pricesIncludeVat: false });
    const tool = await makeTool(runtime, admin, {
      name: 'Cold Chisel',
      price: 10,
      minimumOrderQuantity: 1,
      availableQuantity: 50,
    });
    // 2 × $10 + $5 delivery = $25; VAT 15% = $3.75; total $28.75.
    const id = await placeOrder(runtime, buyer, tool, 2);
    const placed = (await emailsAbout(id)).find((m) => m.kind === 'order-placed')!;
    for (const part of [
      '2 x Cold Chisel at $10.00 = $20.00',
      'Subtotal: $20.00',
      'Delivery: $5.00',
      'VAT 15%: $3.75',
      'Total: $28.75',
    ])
      expect(placed.text).toContain(part);

    await payOrder(runtime, buyer, id);
    const receipt = (await emailsAbout(id)).find((m) => m.kind === 'payment-received')!;
    for (const part of ['Delivery: $5.00', 'VAT 15%: $3.75', 'Total paid: $28.75'])
      expect(receipt.text).toContain(part);
    const pdf = await runtime.app.request(`/api/booking/${id}/invoice`, {
      headers: { authorization: `Bearer ${buyer}` },
    });
    expect(pdf.status, await pdf.clone().text()).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toMatch(/Subtotal\n\$20\.00\nDelivery\n\$5\.00\nVAT 15%\n\$3\.75\nTotal paid\n\$28\.75/);
  });

  it("a discount code's line shows too; an order without delivery, VAT or discount reads as before", async () => {
    const code = `MAIL${Date.now().toString(36).toUpperCase()}`;
    expect(
      (await runtime.request('POST', '/api/discounts', { token: admin, json: { code, percentOff: 10 } })).status,
    ).toBe(201);
    const tool = await makeTool(runtime, admin, {
      name: 'Wood Rasp',
      price: 10,
      minimumOrderQuantity: 1,
      availableQuantity: 50,
    });
    const res = await runtime.request('POST', '/api/orders', {
      token: buyer,
      json: { items: [{ toolId: tool, quantity: 2 }], address: ADDRESS, phone: PHONE, discountCode: code },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    // $20 − $2 + $5 = $23; VAT 15% = $3.45; total $26.45.
    const mail = (await emailsAbout(res.data.insertedId)).find((m) => m.kind === 'order-placed')!;
    for (const part of [`Discount (${code}): -$2.00`, 'Delivery: $5.00', 'VAT 15%: $3.45', 'Total: $26.45'])
      expect(mail.text).toContain(part);

    await setSettings({ deliveryFlat: 0, freeDeliveryOver: null, vatRate: 0, pricesIncludeVat: false });
    const plain = await placeOrder(runtime, buyer, tool, 1);
    const text = (await emailsAbout(plain)).find((m) => m.kind === 'order-placed')!.text;
    expect(text).not.toContain('Subtotal');
    expect(text).toContain('Total: $10.00');
  });
});
