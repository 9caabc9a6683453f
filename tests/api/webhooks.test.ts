// Outgoing webhooks (issue 29), the endpoints and what they receive: an admin adds an endpoint and sees
// its secret once; every listed event of the store reaches the endpoints subscribed to it, signed as
// Standard Webhooks says, shaped {type, timestamp, data}; a deleted endpoint gets nothing more.
// Retries, pausing, replay, several workers and the address rules: webhook-delivery.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../src/lib/webhooks';
import { emit } from '../../src/server/events/events.service';
import { metricsText } from '../../src/server/observability/metrics';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError, makeTool, payOrder, placeOrder } from './helpers';
import { startReceiver, verify, type Receiver } from './webhook-receiver';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let receiver: Receiver;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { LOW_STOCK_UNITS: '5' } });
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

async function addEndpoint(url: string, events: readonly string[] = WEBHOOK_EVENT_TYPES) {
  const res = await runtime.request('POST', '/api/webhooks', { token: admin, json: { url, events } });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data as { id: string; secret: string };
}

/** Delivers what is due and answers what reached the receiver since `from`. */
async function sent(from: number) {
  await runtime.webhooks.run();
  return receiver.received.slice(from);
}

const csv = (rows: string[]) =>
  ['_id,name,description,img,price,minimumOrderQuantity,availableQuantity', ...rows].join('\r\n') + '\r\n';

describe('POST /webhooks, GET /webhooks', () => {
  it('answers 201 {id, secret} with a Standard Webhooks secret, shown once: no read answers it, the database keeps it sealed', async () => {
    const res = await runtime.request('POST', '/api/webhooks', {
      token: admin,
      json: { url: receiver.url, events: ['order.paid'] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.data).sort()).toEqual(['id', 'secret']);
    expect(res.data.id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(res.data.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await runtime.request('GET', '/api/webhooks', { token: admin });
    expect(list.status).toBe(200);
    const mine = list.data.find((e: { id: string }) => e.id === res.data.id);
    expect(mine).toEqual({
      id: res.data.id,
      url: receiver.url,
      events: ['order.paid'],
      state: 'active',
      pausedReason: null,
      pausedAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      createdBy: ADMIN,
      pending: 0,
      failed: 0,
      lastSuccessAt: null,
    });
    const secretPart = res.data.secret.slice(6);
    expect(JSON.stringify(list.data)).not.toContain(secretPart);
    const [row] = await runtime.db.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1', [
      res.data.id,
    ]);
    expect(row.secret).not.toContain(secretPart);
    expect(row.secret).toMatch(/^v1\./);
    expect((await runtime.request('DELETE', `/api/webhooks/${res.data.id}`, { token: admin })).status).toBe(200);
  });

  it('refuses a URL that is not http(s), an unknown event, none or one twice (400); the audit log has the addition', async () => {
    for (const json of [
      { url: 'ftp://example.com/x', events: ['order.paid'] },
      { url: 'https://user:pw@example.com/x', events: ['order.paid'] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['order.exploded'] },
      { url: receiver.url, events: ['order.paid', 'order.paid'] },
    ])
      expectApiError(await runtime.request('POST', '/api/webhooks', { token: admin, json }), 400);
    const audit = await runtime.request('GET', '/api/audit?type=webhook.created', { token: admin });
    expect(audit.data.items[0]).toMatchObject({
      type: 'webhook.created',
      actor: ADMIN,
      target: receiver.url,
      after: { url: receiver.url },
    });
  });
});

describe('deliveries', () => {
  it('every listed event reaches an endpoint subscribed to all, once, signed, as {type, timestamp, data} with its facts', async () => {
    const { id, secret } = await addEndpoint(receiver.url);
    const from = receiver.received.length;
    const tool = await makeTool(runtime, admin, {
      name: 'Webhook Sledge',
      price: 20,
      availableQuantity: 12,
      minimumOrderQuantity: 1,
    });
    await runtime.request('PUT', `/api/tools/${tool}`, {
      token: admin,
      json: {
        name: 'Webhook Sledge II',
        description: 'Heavier.',
        price: 21,
        minimumOrderQuantity: 1,
        img: '/images/tools/anvil.svg',
      },
    });
    await runtime.request('PUT', `/api/tool/update/${tool}`, { token: admin, json: { availableQuantity: 10 } });
    const paid = await placeOrder(runtime, alice, tool, 6); // 4 left: below the low-stock level (5)
    await payOrder(runtime, alice, paid);
    await runtime.request('PUT', `/api/booking/ship/${paid}`, {
      token: admin,
      json: { carrier: 'DHL', trackingNumber: 'JD0001' },
    });
    await runtime.request('PUT', `/api/booking/deliver/${paid}`, { token: admin });
    await runtime.request('PUT', `/api/booking/refund/${paid}`, { token: admin, json: { restock: false, amount: 5 } });
    const dropped = await placeOrder(runtime, alice, tool, 1);
    await runtime.request('DELETE', `/api/booking/dlt/${dropped}`, { token: alice });
    const imported = await runtime.request('POST', '/api/import/tools?apply=1', {
      token: admin,
      body: csv([
        `,Imported Mallet,Rubber.,/images/tools/rubber-mallet.svg,9.50,1,30`,
        `${tool},Webhook Sledge III,Heavier.,/images/tools/anvil.svg,22,1,4`,
      ]),
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status, JSON.stringify(imported.data)).toBe(200);
    await runtime.request('DELETE', `/api/tools/dlt/${tool}`, { token: admin });

    const got = await sent(from);
    const types = got.map((r) => r.payload.type);
    expect([...types].sort()).toEqual(
      [
        'tool.created', // added
        'tool.updated', // edited
        'tool.updated', // restocked
        'order.placed',
        'stock.low',
        'order.paid',
        'order.shipped',
        'order.delivered',
        'order.refunded',
        'order.placed',
        'order.cancelled',
        'tool.created', // imported, new
        'tool.updated', // imported, changed
        'tool.deleted',
      ].sort(),
    );
    expect(new Set(WEBHOOK_EVENT_TYPES)).toEqual(new Set(types));
    // Each its own id; each signed with the endpoint's secret; JSON.
    expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
    for (const request of got) {
      expect(request.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(verify(secret, request), `signature of ${request.payload.type}`).toBe(true);
      expect(request.contentType).toBe('application/json');
      expect(Object.keys(request.payload).sort()).toEqual(['data', 'timestamp', 'type']);
      expect(request.payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    }
    const of = (type: string) => got.filter((r) => r.payload.type === type).map((r) => r.payload.data);
    expect(of('order.paid')[0]).toMatchObject({
      _id: paid,
      email: ALICE,
      lines: [{ productName: 'Webhook Sledge II', quantity: 6, unitCents: 2100 }],
      totalCents: expect.any(Number),
      transactionId: expect.stringMatching(/^pi_/),
      invoiceNumber: expect.any(String),
    });
    expect(of('order.shipped')[0]).toMatchObject({ _id: paid, carrier: 'DHL', trackingNumber: 'JD0001' });
    expect(of('order.refunded')[0]).toMatchObject({ _id: paid, amountCents: 500, full: false });
    expect(of('order.cancelled')[0]).toMatchObject({ _id: dropped, reason: 'deleted' });
    expect(of('stock.low')[0]).toEqual({ _id: tool, name: 'Webhook Sledge II', availableQuantity: 4, threshold: 5 });
    expect(of('tool.created')[0]).toMatchObject({
      _id: tool,
      name: 'Webhook Sledge',
      price: 20,
      availableQuantity: 12,
      priceBreaks: [],
    });
    // Sent concurrently, so in any order.
    expect(
      of('tool.updated')
        .map((t) => `${t.name}: ${t.availableQuantity}`)
        .sort(),
    ).toEqual(['Webhook Sledge II: 10', 'Webhook Sledge II: 12', 'Webhook Sledge III: 4']);
    expect(of('tool.deleted')[0]).toMatchObject({ _id: tool, name: 'Webhook Sledge III' });
    // The audit log's words are not sent; nor is anything only the store needs.
    for (const request of got)
      expect(Object.keys(request.payload.data)).not.toEqual(expect.arrayContaining(['target']));

    // The log says so: every delivery delivered, one attempt each, its status and time kept.
    const log = await runtime.request('GET', `/api/webhooks/${id}/deliveries?limit=100`, { token: admin });
    expect(log.status).toBe(200);
    expect(log.data.total).toBe(got.length);
    for (const delivery of log.data.items)
      expect(delivery).toMatchObject({
        state: 'delivered',
        attempts: 1,
        responseStatus: 200,
        durationMs: expect.any(Number),
        error: null,
        nextAttemptAt: null,
      });
    // The id is the webhook-id the receiver saw.
    expect(log.data.items.map((d: { id: string }) => d.id).sort()).toEqual(got.map((r) => r.id).sort());
    // Run again: nothing is sent twice.
    expect(await sent(receiver.received.length)).toEqual([]);
    // Counted by outcome for Prometheus.
    const delivered = Number(/^webhook_attempts_total\{outcome="delivered"\} (\d+)$/m.exec(await metricsText())?.[1]);
    expect(delivered).toBeGreaterThanOrEqual(got.length);
  });

  it('an endpoint gets only the events it chose, and none from before it was added', async () => {
    const tool = await makeTool(runtime, admin, { availableQuantity: 50 });
    const before = await placeOrder(runtime, alice, tool);
    await runtime.webhooks.run();
    const from = receiver.received.length;
    const other = await startReceiver();
    try {
      const { secret } = await addEndpoint(other.url, ['order.paid']);
      await payOrder(runtime, alice, before);
      await placeOrder(runtime, alice, tool);
      await runtime.webhooks.run();
      expect(other.received.map((r) => [r.payload.type, r.payload.data._id])).toEqual([['order.paid', before]]);
      expect(verify(secret, other.received[0])).toBe(true);
    } finally {
      await other.close();
    }
    // The endpoint subscribed to all got them too, separately.
    expect(
      receiver.received
        .slice(from)
        .map((r) => r.payload.type)
        .sort(),
    ).toEqual(['order.paid', 'order.placed']);
  });

  it('an event and its deliveries are one transaction: a rolled-back change leaves none', async () => {
    const [{ n: before }] = await runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries');
    await expect(
      runtime.db.transaction(async (tx) => {
        await emit(tx, { type: 'order.paid', subject: 'rolled-back', data: {} });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const [{ n: after }] = await runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries');
    expect(after).toBe(before);
  });
});

describe('DELETE /webhooks/{id}', () => {
  it('removes the endpoint: gone from the list, nothing more is sent, what waited is failed; 404 after', async () => {
    const gone = await startReceiver();
    try {
      const { id } = await addEndpoint(gone.url, ['tool.created']);
      await makeTool(runtime, admin); // waits, unsent
      const res = await runtime.request('DELETE', `/api/webhooks/${id}`, { token: admin });
      expect(res.status).toBe(200);
      expect(res.data).toEqual({ acknowledged: true, deletedCount: 1 });
      await makeTool(runtime, admin);
      await runtime.webhooks.run();
      expect(gone.received).toEqual([]);
      const list = await runtime.request('GET', '/api/webhooks', { token: admin });
      expect(list.data.map((e: { id: string }) => e.id)).not.toContain(id);
      const rows = await runtime.db.query<{ state: string; last_error: string }>(
        'SELECT state, last_error FROM webhook_deliveries WHERE endpoint_id = $1',
        [id],
      );
      expect(rows).toEqual([{ state: 'failed', last_error: 'The endpoint was deleted' }]);
      const [endpoint] = await runtime.db.query<{ secret: string }>(
        'SELECT secret FROM webhook_endpoints WHERE id = $1',
        [id],
      );
      expect(endpoint.secret).toBe('');
      expectApiError(await runtime.request('DELETE', `/api/webhooks/${id}`, { token: admin }), 404);
      expectApiError(await runtime.request('GET', `/api/webhooks/${id}/deliveries`, { token: admin }), 404);
      const audit = await runtime.request('GET', '/api/audit?type=webhook.deleted', { token: admin });
      expect(audit.data.items[0]).toMatchObject({ actor: ADMIN, subject: id, target: gone.url, after: null });
    } finally {
      await gone.close();
    }
  });
});
