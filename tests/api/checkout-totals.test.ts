// Issue 27, checkout totals: the shop's settings (delivery, free delivery, VAT, prices with VAT) and
// discount codes, applied by the server to every order placed after them, rounded half-up once per order.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import { orderTotals } from '../../src/lib/totals';
import { ADMIN, ALICE, BOB, createTestRuntime, type TestRuntime } from './harness';
import {
  ADDRESS,
  PHONE,
  expectApiError,
  expectStockLedgerBalanced,
  makeTool,
  payOrder,
  placeOrder,
  snapshot,
} from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let bob: string;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { BOOKING_RATE_LIMIT: '100000', MAX_UNPAID_ORDERS: '100000' } });
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  bob = await runtime.tokenFor(BOB);
});
afterAll(async () => {
  await expectStockLedgerBalanced(runtime);
  await runtime.close();
});

const NONE = { deliveryFlat: 0, vatRate: 0, pricesIncludeVat: false };
const setSettings = async (settings: Record<string, unknown>) => {
  const res = await runtime.request('PUT', '/api/settings', { token: admin, json: settings });
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return res.data;
};
const book = (token: string, toolId: string, quantity: number, extra: object = {}) =>
  runtime.request('POST', '/api/booking', {
    token,
    json: { toolId, quantity, address: ADDRESS, phone: PHONE, ...extra },
  });
const cart = (token: string, items: { toolId: string; quantity: number }[], extra: object = {}) =>
  runtime.request('POST', '/api/orders', { token, json: { items, address: ADDRESS, phone: PHONE, ...extra } });
const order = async (id: string) => (await runtime.request('GET', `/api/booking/${id}`, { token: admin })).data;
const breakdown = (o: Record<string, unknown>) => ({
  subtotalCents: o.subtotalCents,
  discountCents: o.discountCents,
  deliveryCents: o.deliveryCents,
  taxCents: o.taxCents,
  totalCents: o.totalCents,
});
const discount = async (body: Record<string, unknown>) => {
  const res = await runtime.request('POST', '/api/discounts', { token: admin, json: body });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data.insertedId as string;
};
let codeCount = 0;
const newCode = () => `CODE${++codeCount}X${Date.now().toString(36).toUpperCase()}`;

describe('rounding (src/lib/totals.ts)', () => {
  const settings = (vat: number, included = false) => ({
    deliveryFlatCents: 0,
    freeDeliveryOverCents: null,
    vatRateHundredths: vat * 100,
    pricesIncludeVat: included,
  });
  it('3 × $0.35 at 15% VAT: 105 cents of goods, 15.75 → 16 cents of VAT, once per order', () => {
    expect(orderTotals([{ quantity: 3, unitCents: 35 }], settings(15))).toMatchObject({
      subtotalCents: 105,
      taxCents: 16,
      totalCents: 121,
    });
    // Per line it would be 3 × round(5.25) = 15: the order is rounded once.
    expect(
      orderTotals(
        [
          { quantity: 1, unitCents: 35 },
          { quantity: 1, unitCents: 35 },
          { quantity: 1, unitCents: 35 },
        ],
        settings(15),
      ).taxCents,
    ).toBe(16);
  });
  it('half-up at exactly half a cent, VAT inside prices, percentages with decimals', () => {
    expect(orderTotals([{ quantity: 1, unitCents: 10 }], settings(5)).taxCents).toBe(1); // 0.5 → 1
    expect(orderTotals([{ quantity: 1, unitCents: 9 }], settings(5)).taxCents).toBe(0); // 0.45 → 0
    // $1.15 with 15% inside: 115 × 15 / 115 = 15 exactly; $1.00: 13.04 → 13.
    expect(orderTotals([{ quantity: 1, unitCents: 115 }], settings(15, true))).toMatchObject({
      taxCents: 15,
      totalCents: 115,
    });
    expect(orderTotals([{ quantity: 1, unitCents: 100 }], settings(15, true))).toMatchObject({
      taxCents: 13,
      totalCents: 100,
    });
    expect(orderTotals([{ quantity: 1, unitCents: 1000 }], settings(7.5)).taxCents).toBe(75);
    expect(orderTotals([{ quantity: 3, unitCents: 333 }], settings(0), { percentOffHundredths: 1250 })).toMatchObject({
      discountCents: 125,
      totalCents: 874,
    });
    expect(orderTotals([{ quantity: 1, unitCents: 500 }], settings(0), { amountOffCents: 900 })).toMatchObject({
      discountCents: 500,
      totalCents: 0,
    });
  });
});

describe('shop settings', () => {
  beforeEach(() => setSettings(NONE));

  it('GET is public, PUT is admin only and validated; the change is an audit event', async () => {
    expect((await runtime.request('GET', '/api/settings')).data).toEqual({
      deliveryFlat: 0,
      freeDeliveryOver: null,
      vatRate: 0,
      pricesIncludeVat: false,
    });
    expect(
      await setSettings({ deliveryFlat: 4.99, freeDeliveryOver: 100, vatRate: 15, pricesIncludeVat: false }),
    ).toEqual({
      deliveryFlat: 4.99,
      freeDeliveryOver: 100,
      vatRate: 15,
      pricesIncludeVat: false,
    });
    expect((await runtime.request('GET', '/api/settings')).data).toMatchObject({ deliveryFlat: 4.99, vatRate: 15 });
    expectApiError(await runtime.request('PUT', '/api/settings', { token: alice, json: NONE }), 403);
    expectApiError(await runtime.request('PUT', '/api/settings', { json: NONE }), 401);
    for (const bad of [
      { deliveryFlat: -1 },
      { vatRate: 101 },
      { vatRate: 'x' },
      { deliveryFlat: 1.234 },
      { pricesIncludeVat: 'yes' },
      { freeDeliveryOver: -5 },
    ])
      expectApiError(await runtime.request('PUT', '/api/settings', { token: admin, json: { ...NONE, ...bad } }), 400);
    const audit = (await runtime.request('GET', '/api/audit?type=settings.updated', { token: admin })).data.items;
    expect(audit[audit.length - 1]).toMatchObject({ type: 'settings.updated', actor: ADMIN });
  });

  it('each setting alone, then together, on both placing paths (POST /booking, POST /orders)', async () => {
    const tool = await makeTool(runtime, admin, { price: 10, availableQuantity: 10_000 });
    const other = await makeTool(runtime, admin, { price: 2.5, availableQuantity: 10_000 });
    const placeBoth = async () => [
      breakdown(await order((await book(alice, tool, 3)).data.insertedId)),
      breakdown(
        await order(
          (
            await cart(alice, [
              { toolId: tool, quantity: 2 },
              { toolId: other, quantity: 4 },
            ])
          ).data.insertedId,
        ),
      ),
    ];
    expect(await placeBoth()).toEqual([
      { subtotalCents: 3000, discountCents: 0, deliveryCents: 0, taxCents: 0, totalCents: 3000 },
      { subtotalCents: 3000, discountCents: 0, deliveryCents: 0, taxCents: 0, totalCents: 3000 },
    ]);
    await setSettings({ ...NONE, deliveryFlat: 5 });
    expect((await placeBoth()).map((b) => [b.deliveryCents, b.totalCents])).toEqual([
      [500, 3500],
      [500, 3500],
    ]);
    await setSettings({ ...NONE, deliveryFlat: 5, freeDeliveryOver: 30 });
    expect((await placeBoth()).map((b) => [b.deliveryCents, b.totalCents])).toEqual([
      [0, 3000],
      [0, 3000],
    ]);
    await setSettings({ ...NONE, vatRate: 15 });
    expect((await placeBoth()).map((b) => [b.taxCents, b.totalCents])).toEqual([
      [450, 3450],
      [450, 3450],
    ]);
    await setSettings({ ...NONE, vatRate: 15, pricesIncludeVat: true });
    expect((await placeBoth()).map((b) => [b.taxCents, b.totalCents])).toEqual([
      [391, 3000],
      [391, 3000],
    ]);
    await setSettings({ deliveryFlat: 5, freeDeliveryOver: 100, vatRate: 15, pricesIncludeVat: false });
    expect(await placeBoth()).toEqual([
      { subtotalCents: 3000, discountCents: 0, deliveryCents: 500, taxCents: 525, totalCents: 4025 },
      { subtotalCents: 3000, discountCents: 0, deliveryCents: 500, taxCents: 525, totalCents: 4025 },
    ]);
  });

  it('a placed order keeps its amounts when the settings change; its payment charges them', async () => {
    await setSettings({ ...NONE, deliveryFlat: 7, vatRate: 10 });
    const tool = await makeTool(runtime, admin, { price: 20, availableQuantity: 100 });
    const id = await placeOrder(runtime, alice, tool, 1);
    await setSettings(NONE);
    expect(breakdown(await order(id))).toEqual({
      subtotalCents: 2000,
      discountCents: 0,
      deliveryCents: 700,
      taxCents: 270,
      totalCents: 2970,
    });
    const intent = await runtime.request('POST', '/api/create-payment-intent', {
      token: alice,
      json: { orderId: id, price: 1 },
    });
    expect(intent.status).toBe(200);
    await payOrder(runtime, alice, id);
    expect(await order(id)).toMatchObject({ payment: 'paid', totalCents: 2970 });
  });
});

describe('discount codes', () => {
  beforeAll(() => setSettings(NONE));

  it('admins create, list (with uses) and remove codes; codes are unique whatever their case', async () => {
    const code = newCode();
    const id = await discount({ code: code.toLowerCase(), percentOff: 10 });
    expectApiError(
      await runtime.request('POST', '/api/discounts', { token: admin, json: { code, amountOff: 5 } }),
      409,
    );
    const listed = (await runtime.request('GET', '/api/discounts', { token: admin })).data;
    expect(listed.find((d: { _id: string }) => d._id === id)).toMatchObject({
      code,
      percentOff: 10,
      amountOff: null,
      uses: 0,
      disabled: false,
    });
    for (const bad of [
      { code },
      { code, percentOff: 10, amountOff: 5 },
      { code: 'a b', percentOff: 5 },
      { code: 'XY', percentOff: 5 },
      { code, percentOff: 0 },
      { code, percentOff: 101 },
      { code, amountOff: -1 },
      { code, percentOff: 5, startsAt: '2030-01-02', expiresAt: '2030-01-01' },
      { code, percentOff: 5, maxUses: 0 },
      { code, percentOff: 5, expiresAt: 'soon' },
    ])
      expectApiError(await runtime.request('POST', '/api/discounts', { token: admin, json: bad }), 400);
    expectApiError(await runtime.request('GET', '/api/discounts', { token: alice }), 403);
    expectApiError(
      await runtime.request('POST', '/api/discounts', { token: alice, json: { code: newCode(), percentOff: 5 } }),
      403,
    );
    expectApiError(await runtime.request('DELETE', `/api/discounts/${id}`, { token: alice }), 403);
    expect((await runtime.request('DELETE', `/api/discounts/${id}`, { token: admin })).status).toBe(200);
    expectApiError(await runtime.request('DELETE', `/api/discounts/${id}`, { token: admin }), 404);
    expectApiError(await book(alice, await makeTool(runtime, admin), 1, { discountCode: code }), 422);
  });

  it('a percentage or an amount off the goods, before delivery and VAT; case does not matter', async () => {
    await setSettings({ deliveryFlat: 5, vatRate: 10, pricesIncludeVat: false });
    const tool = await makeTool(runtime, admin, { price: 10, availableQuantity: 1000 });
    const pct = newCode();
    await discount({ code: pct, percentOff: 25 });
    const a = await order((await book(alice, tool, 4, { discountCode: pct.toLowerCase() })).data.insertedId);
    expect(breakdown(a)).toEqual({
      subtotalCents: 4000,
      discountCents: 1000,
      deliveryCents: 500,
      taxCents: 350,
      totalCents: 3850,
    });
    expect(a.discountCode).toBe(pct);
    const amt = newCode();
    await discount({ code: amt, amountOff: 100 });
    const b = await order((await cart(bob, [{ toolId: tool, quantity: 2 }], { discountCode: amt })).data.insertedId);
    // Never below zero goods: $100 off $20 takes $20.
    expect(breakdown(b)).toEqual({
      subtotalCents: 2000,
      discountCents: 2000,
      deliveryCents: 500,
      taxCents: 50,
      totalCents: 550,
    });
    await setSettings(NONE);
  });

  it('unknown, not started, expired, used up, below its minimum or used once already: 422 naming why, nothing written', async () => {
    const tool = await makeTool(runtime, admin, { price: 10, availableQuantity: 1000 });
    const before = async () => snapshot(runtime);
    const refused = async (code: string, message: string, quantity = 1, token = alice) => {
      const was = await before();
      const res = await book(token, tool, quantity, { discountCode: code });
      expectApiError(res, 422);
      expect(res.data.error.message).toBe(message);
      expect(res.data.error.fields).toEqual({ discountCode: message });
      expect(await snapshot(runtime)).toEqual(was);
    };
    await refused('NOSUCHCODE', messages.discountUnknown);
    const later = newCode();
    await discount({ code: later, percentOff: 5, startsAt: '2099-01-01' });
    await refused(later, messages.discountNotStarted('2099-01-01'));
    const past = newCode();
    await discount({ code: past, percentOff: 5, expiresAt: '2000-01-01' });
    await refused(past, messages.discountExpired);
    const min = newCode();
    await discount({ code: min, amountOff: 5, minSubtotal: 50 });
    await refused(min, messages.discountBelowMinimum('$50.00'), 4);
    expect((await book(alice, tool, 5, { discountCode: min })).status).toBe(201);
    const once = newCode();
    await discount({ code: once, percentOff: 5, oncePerCustomer: true });
    expect((await book(alice, tool, 1, { discountCode: once })).status).toBe(201);
    await refused(once, messages.discountUsedByYou);
    expect((await book(bob, tool, 1, { discountCode: once })).status).toBe(201);
    const two = newCode();
    await discount({ code: two, percentOff: 5, maxUses: 2 });
    expect((await book(alice, tool, 1, { discountCode: two })).status).toBe(201);
    expect((await book(bob, tool, 1, { discountCode: two })).status).toBe(201);
    await refused(two, messages.discountUsedUp);
    // The preview says the same without placing anything.
    const preview = await runtime.request('POST', '/api/quote-totals', {
      json: { items: [{ toolId: tool, quantity: 1 }], discountCode: two },
    });
    expectApiError(preview, 422);
    expect(preview.data.error.message).toBe(messages.discountUsedUp);
  });

  it('a use is released when its unpaid order is deleted or its hold runs out; a paid one keeps it', async () => {
    const tool = await makeTool(runtime, admin, { price: 10, availableQuantity: 1000 });
    const code = newCode();
    await discount({ code, percentOff: 5, maxUses: 1 });
    const first = (await book(alice, tool, 1, { discountCode: code })).data.insertedId;
    expectApiError(await book(bob, tool, 1, { discountCode: code }), 422);
    expect((await runtime.request('DELETE', `/api/booking/dlt/${first}`, { token: alice })).status).toBe(200);
    const second = (await book(bob, tool, 1, { discountCode: code })).data.insertedId;
    expect(second).toBeTruthy();
    runtime.advance(31 * 60_000);
    await runtime.checkout.expireHolds();
    expect((await order(second)).payment).toBe('cancelled');
    const third = (await book(alice, tool, 1, { discountCode: code })).data.insertedId;
    await payOrder(runtime, alice, third);
    expectApiError(await book(bob, tool, 1, { discountCode: code }), 422);
    const listed = (await runtime.request('GET', '/api/discounts', { token: admin })).data;
    expect(listed.find((d: { code: string }) => d.code === code).uses).toBe(1);
  });

  it('maxUses holds under concurrency: 50 buyers racing for a code with maxUses 10 get exactly 10 orders', async () => {
    const tool = await makeTool(runtime, admin, { price: 10, availableQuantity: 1000 });
    const other = await makeTool(runtime, admin, { price: 3, availableQuantity: 1000 });
    const code = newCode();
    await discount({ code, percentOff: 50, maxUses: 10 });
    const buyers = [alice, bob, admin];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? book(buyers[i % 3], tool, 1, { discountCode: code })
          : cart(
              buyers[i % 3],
              [
                { toolId: tool, quantity: 1 },
                { toolId: other, quantity: 1 },
              ],
              { discountCode: code },
            ),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 422).every((r) => r.data.error.message === messages.discountUsedUp)).toBe(
      true,
    );
    expect(results.filter((r) => r.status !== 201 && r.status !== 422)).toEqual([]);
    const [{ n }] = await runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE discount_code = $1`,
      [code],
    );
    expect(n).toBe(10);
  });
});

describe('POST /quote-totals', () => {
  it('prices the lines at their breaks with the settings and the code, places nothing, ignores amounts sent', async () => {
    await setSettings({ deliveryFlat: 5, freeDeliveryOver: 200, vatRate: 15, pricesIncludeVat: false });
    const tool = await makeTool(runtime, admin, {
      price: 10,
      availableQuantity: 1000,
      priceBreaks: [{ minQuantity: 10, price: 8 }],
    });
    const code = newCode();
    await discount({ code, amountOff: 10 });
    const was = await snapshot(runtime);
    const res = await runtime.request('POST', '/api/quote-totals', {
      json: { items: [{ toolId: tool, quantity: 10, price: 0.01 }], discountCode: code, totalCents: 1 },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data).toEqual({
      subtotalCents: 8000,
      discountCents: 1000,
      deliveryCents: 500,
      taxCents: 1125,
      taxIncluded: false,
      vatRate: 15,
      discountCode: code,
      totalCents: 8625,
    });
    expect(await snapshot(runtime)).toEqual(was);
    // The order placed from the same cart costs what the preview said.
    const placed = await order((await book(alice, tool, 10, { discountCode: code, totalCents: 1 })).data.insertedId);
    expect(breakdown(placed)).toEqual({
      subtotalCents: 8000,
      discountCents: 1000,
      deliveryCents: 500,
      taxCents: 1125,
      totalCents: 8625,
    });
    expectApiError(await runtime.request('POST', '/api/quote-totals', { json: { items: [] } }), 400);
    expectApiError(
      await runtime.request('POST', '/api/quote-totals', {
        json: { items: [{ toolId: '0'.repeat(24), quantity: 1 }] },
      }),
      422,
    );
    await setSettings(NONE);
  });
});
