// Traces over OTLP/HTTP (issue 29): with OTEL_EXPORTER_OTLP_ENDPOINT set, every request through the
// outer server is a span named by its route template with its status, the database work it caused are its
// child spans (the pg instrumentation on PostgreSQL, the db layer's spans on PGlite), the outbox's batches
// are traced, a caller's traceparent is continued, and the access log names the trace. A collector runs
// here, on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { ADDRESS, PHONE } from './helpers';
import { startOuter, type Outer } from './outer';
import { startReceiver } from './webhook-receiver';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number; boolValue?: boolean } }[];
}
const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.boolValue);
};

const received: OtlpSpan[] = [];
const services = new Set<string>();
let collector: Server;
let runtime: TestRuntime;
let outer: Outer;
let tracer: NonNullable<Awaited<ReturnType<typeof import('../../src/server/observability/tracing').startTracing>>>;

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const r of body.resourceSpans) {
        services.add(String(r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue));
        for (const s of r.scopeSpans) received.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  process.env.OTEL_SERVICE_NAME = 'ironcrest-test';
  // Every request (the store's default traces one in twenty).
  process.env.OTEL_TRACES_SAMPLER = 'parentbased_always_on';
  // Before the store opens, as main.ts does: the database driver loads after the pg instrumentation.
  const { startTracing } = await import('../../src/server/observability/tracing');
  tracer = (await startTracing(process.env, { postgres: process.env.TEST_DB === 'postgres' }))!;
  runtime = await createTestRuntime();
  outer = await startOuter(runtime);
});
afterAll(async () => {
  await outer?.close();
  await runtime?.close();
  await tracer?.shutdown();
  collector?.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_TRACES_SAMPLER;
});

describe('traces', () => {
  it('a span per request, named by its route template, with the status and the database work as children', async () => {
    const admin = await runtime.tokenFor(ADMIN);
    const alice = await runtime.tokenFor(ALICE);
    const toolId = (await runtime.firstTool())._id;
    const placed = await outer.raw(
      'POST',
      '/api/booking',
      { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      JSON.stringify({
        toolId,
        quantity: (await runtime.firstTool()).minimumOrderQuantity,
        address: ADDRESS,
        phone: PHONE,
      }),
    );
    expect(placed.status).toBe(201);
    const orderId = JSON.parse(placed.body).insertedId as string;
    // A caller's trace is continued (nginx or another service sent traceparent).
    const caller = '0af7651916cd43dd8448eb211c80319c';
    const read = await outer.raw('GET', `/api/booking/${orderId}`, {
      authorization: `Bearer ${admin}`,
      traceparent: `00-${caller}-b7ad6b7169203331-01`,
    });
    expect(read.status).toBe(200);
    expect(
      (await outer.raw('GET', '/api/booking/000000000000000000000000', { authorization: `Bearer ${admin}` })).status,
    ).toBe(404);
    await runtime.outbox.run(); // the order's emails: an outbox batch

    await tracer.flush();
    const spans = await waitFor(
      () =>
        received.some(
          (s) => attr(s, 'http.route') === '/api/booking/{id}' && attr(s, 'http.response.status_code') === 404,
        ) && received.some((s) => s.name.startsWith('outbox ')),
    );
    expect(services).toEqual(new Set(['ironcrest-test']));

    const post = spans.find((s) => s.name === 'POST /api/booking')!;
    expect(post).toBeDefined();
    expect(post.kind).toBe(2); // SERVER
    expect(attr(post, 'http.route')).toBe('/api/booking');
    expect(attr(post, 'http.response.status_code')).toBe(201);

    const get = spans.find((s) => s.name === 'GET /api/booking/{id}' && attr(s, 'http.response.status_code') === 200)!;
    expect(get.traceId).toBe(caller);
    expect(get.parentSpanId).toBe('b7ad6b7169203331');

    // The database statements of the order are children in the request's trace.
    const statements = spans.filter((s) => s.traceId === post.traceId && s.name.startsWith('pg.'));
    expect(statements.length).toBeGreaterThan(0);
    const ids = new Set(spans.filter((s) => s.traceId === post.traceId).map((s) => s.spanId));
    for (const s of statements) expect(ids.has(s.parentSpanId!) || s.parentSpanId === post.spanId).toBe(true);
    expect(statements.some((s) => attr(s, 'db.system.name') === 'postgresql')).toBe(true);
    // PostgreSQL's are the pg instrumentation's (named after the database); PGlite's come from our db layer.
    const embedded = process.env.TEST_DB !== 'postgres';
    expect(statements.every((s) => (attr(s, 'db.namespace') === 'pglite') === embedded)).toBe(true);

    const batch = spans.find((s) => s.name === 'outbox email')!;
    expect(batch).toBeDefined();
    expect(attr(batch, 'outbox.events')).toBeGreaterThan(0);
    expect(spans.some((s) => s.traceId === batch.traceId && s.name.startsWith('pg.'))).toBe(true);
  });
});

describe('traces of answers from memory', () => {
  it('the trace id a request is logged with is the one its span is sent with, made late or not', async () => {
    const { IncomingMessage } = await import('node:http');
    const { Socket } = await import('node:net');
    const request = (url: string) => Object.assign(new IncomingMessage(new Socket()), { method: 'GET', url });
    // Answered from memory: the access line names the trace before the SDK's span exists.
    const fromMemory = tracer.startRequest(request('/api/tools?logged=memory'))!;
    const loggedFromMemory = fromMemory.traceId;
    fromMemory.end(200);
    // Answered by work that runs inside the span.
    const worked = tracer.startRequest(request('/api/tools?logged=work'))!;
    const loggedWorked = worked.traceId;
    worked.run(() => undefined);
    worked.end(200);
    await tracer.flush();
    const spans = await waitFor(() =>
      [loggedFromMemory, loggedWorked].every((id) => received.some((s) => s.traceId === id)),
    );
    expect(spans.find((s) => s.traceId === loggedFromMemory)?.name).toBe('GET /api/tools');
    expect(spans.find((s) => s.traceId === loggedWorked)?.name).toBe('GET /api/tools');
  });

  it('a public read answered from memory is a span too, made after the answer, continuing a caller', async () => {
    const before = Date.now();
    // The first read fills the API's kept copy; the next ones are answered from it.
    for (let i = 0; i < 3; i++) expect((await outer.raw('GET', '/api/tools', {})).status).toBe(200);
    const caller = '4bf92f3577b34da6a3ce929d0e0e4736';
    const continued = await outer.raw('GET', '/api/tools', { traceparent: `00-${caller}-00f067aa0ba902b7-01` });
    expect(continued.status).toBe(200);
    await tracer.flush();
    const spans = await waitFor(() => received.some((s) => s.traceId === caller && s.name === 'GET /api/tools'));
    const reads = spans.filter((s) => s.name === 'GET /api/tools');
    expect(reads.length).toBeGreaterThanOrEqual(4);
    for (const read of reads) {
      expect(read.kind).toBe(2); // SERVER
      expect(attr(read, 'http.route')).toBe('/api/tools');
      expect(attr(read, 'http.response.status_code')).toBe(200);
      expect(read.traceId).toMatch(/^[\da-f]{32}$/);
      expect(read.spanId).toMatch(/^[\da-f]{16}$/);
      // The span's times are the request's, not when it was made.
      const start = BigInt(read.startTimeUnixNano);
      expect(start).toBeGreaterThanOrEqual(BigInt(before - 1000) * 1_000_000n);
      expect(BigInt(read.endTimeUnixNano)).toBeGreaterThanOrEqual(start);
    }
    const own = reads.find((s) => s.traceId === caller)!;
    expect(own.parentSpanId).toBe('00f067aa0ba902b7');
    // Each request's own trace.
    expect(new Set(reads.map((s) => s.traceId)).size).toBe(reads.length);
  });
});

async function waitFor(done: () => boolean): Promise<OtlpSpan[]> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
  return received;
}

describe('traces of webhook deliveries', () => {
  it('each attempt is a trace of its own, with the delivery it made and its statements', async () => {
    const receiver = await startReceiver();
    try {
      const admin = await runtime.tokenFor(ADMIN);
      const endpoint = await runtime.request('POST', '/api/webhooks', {
        token: admin,
        json: { url: receiver.url, events: ['order.placed'] },
      });
      expect(endpoint.status).toBe(201);
      const alice = await runtime.tokenFor(ALICE);
      const tool = await runtime.firstTool();
      const placed = await runtime.request('POST', '/api/booking', {
        token: alice,
        json: { toolId: tool._id, quantity: tool.minimumOrderQuantity, address: ADDRESS, phone: PHONE },
      });
      expect(placed.status).toBe(201);
      await runtime.webhooks.run();
      await tracer.flush();
      const spans = await waitFor(() => received.some((s) => s.name === 'webhook attempt'));
      const attempt = spans.find((s) => s.name === 'webhook attempt')!;
      expect(attempt).toBeDefined();
      expect(attr(attempt, 'webhook.event')).toBe('order.placed');
      expect(attr(attempt, 'webhook.endpoint')).toBe(endpoint.data.id);
      expect(spans.some((s) => s.traceId === attempt.traceId && s.name.startsWith('pg.'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
