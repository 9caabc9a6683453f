// The API's description (issue 29): GET /api/openapi.json is a valid OpenAPI 3.1 document of every route
// the app serves, each bound to its contract (src/lib/contracts/), and /api/docs shows it from our own
// origin with no script and a policy of its own.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiContracts } from '../../src/lib/contracts/api';
import type { RouteContract } from '../../src/lib/contracts/route';
import { stripeClient, stripeGateway } from '../../src/server/payments/stripe';
import { createTestRuntime, type TestRuntime } from './harness';

type Operation = {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, unknown>;
  operationId?: string;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

/** The routes an app serves under /api, as `METHOD /path` in the document's spelling ({id}). */
function served(app: Hono<never>): string[] {
  return [
    ...new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
        .map((r) => `${r.method} ${r.path.slice('/api'.length).replace(/:(\w+)/g, '{$1}')}`),
    ),
  ].sort();
}
/** The calls a document describes, the same way. */
const described = (doc: Document) =>
  Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
const contracted = () =>
  Object.values(apiContracts)
    .flatMap((group) => Object.values(group as Record<string, RouteContract>))
    .map((c) => `${c.method.toUpperCase()} ${c.path}`)
    .sort();

// The spec's calls (point 7) and the cart's order, each with whether it carries a bearer and a body.
const SPEC_CALLS: [string, { bearer: boolean; body: boolean }][] = [
  ['PUT /user/{email}', { bearer: false, body: true }],
  ['GET /admin/{email}', { bearer: true, body: false }],
  ['GET /tools', { bearer: false, body: false }],
  ['GET /tools/{id}', { bearer: false, body: false }],
  ['POST /tools', { bearer: true, body: true }],
  ['DELETE /tools/dlt/{id}', { bearer: true, body: false }],
  ['PUT /tool/update/{id}', { bearer: true, body: true }],
  ['POST /booking', { bearer: true, body: true }],
  ['GET /booking', { bearer: true, body: false }],
  ['GET /booking/{id}', { bearer: true, body: false }],
  ['GET /booking/email/{email}', { bearer: true, body: false }],
  ['DELETE /booking/dlt/{id}', { bearer: true, body: false }],
  ['PUT /booking/makepayment/{id}', { bearer: true, body: true }],
  ['POST /create-payment-intent', { bearer: true, body: true }],
  ['GET /userprofile/{email}', { bearer: true, body: false }],
  ['PUT /userupdate/{email}', { bearer: true, body: true }],
  ['POST /review', { bearer: true, body: true }],
  ['GET /reviews', { bearer: false, body: false }],
  ['GET /allusers', { bearer: true, body: false }],
  ['DELETE /allusers/dlt/{email}', { bearer: true, body: false }],
  ['PUT /allusers/makeadmin/{email}', { bearer: true, body: false }],
  ['POST /orders', { bearer: true, body: true }],
];

let runtime: TestRuntime;
let doc: Document;
beforeAll(async () => {
  runtime = await createTestRuntime();
  const res = await runtime.request('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.data;
});
afterAll(() => runtime.close());

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes exactly the routes the API serves: no route without a contract, no contract without a route', () => {
    expect(described(doc)).toEqual(served(runtime.app as never));
    // Every contract is bound; the Stripe webhook only with Stripe configured (see below).
    expect(contracted().filter((call) => !described(doc).includes(call))).toEqual(['POST /webhooks/stripe']);
  });

  it('tells a route bound without a contract (the check itself)', () => {
    const rogue = new Hono<never>()
      .route('/', runtime.app as never)
      .get('/api/rogue/:id', (c) => c.text('no contract'));
    const missing = served(rogue).filter((call) => !described(doc).includes(call));
    expect(missing).toEqual(['GET /rogue/{id}']);
  });

  it('with Stripe configured, describes its webhook too, and still every route', async () => {
    const stripe = stripeClient('sk_test_x', 'http://127.0.0.1:9');
    const withStripe = await createTestRuntime({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_x',
        PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_test',
      },
      payments: () => stripeGateway(stripe),
      stripe,
    });
    try {
      const stripeDoc = (await withStripe.request('GET', '/api/openapi.json')).data as Document;
      expect(described(stripeDoc)).toEqual(served(withStripe.app as never));
      expect(stripeDoc.paths['/webhooks/stripe'].post.security).toEqual([{ stripeSignature: [] }]);
      // The sandbox's card network is not there with Stripe.
      expect(stripeDoc.paths['/sandbox/confirm']).toBeUndefined();
    } finally {
      await withStripe.close();
    }
  });

  it("covers every call of spec point 7 and the cart's order, with bodies and bearer security where they have them", () => {
    for (const [call, { bearer, body }] of SPEC_CALLS) {
      const [method, path] = call.split(' ');
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, call).toBeDefined();
      expect(Boolean(op.security?.some((s) => 'bearer' in s)), `${call}: bearer`).toBe(bearer);
      if (body) expect(op.requestBody?.content['application/json']?.schema, `${call}: body schema`).toBeDefined();
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        `${call}: a success`,
      ).toBe(true);
    }
    expect(doc.paths['/user/{email}'].put.security).toEqual([{ firebaseIdToken: [] }]);
  });

  it('declares its security schemes, and every protected call names one with its refusals', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'bearer',
      'firebaseIdToken',
      'stripeSignature',
    ]);
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const access = (op as { 'x-access'?: string })['x-access'];
        expect(access, `${method} ${path}`).toBeDefined();
        if (access === 'anyone') expect(op.security, `${method} ${path}`).toBeUndefined();
        else expect(op.security, `${method} ${path}`).toHaveLength(1);
        if (op.security?.some((s) => 'bearer' in s))
          expect(op.responses['401'], `${method} ${path}: 401`).toBeDefined();
        if (access === 'adminOnly') expect(op.responses['403'], `${method} ${path}: 403`).toBeDefined();
        expect(op.operationId, `${method} ${path}`).toMatch(/^\w+\.\w+$/);
      }
  });

  it('keeps the spec names on the wire (the schemas of the answers)', () => {
    const schemas = (doc.components as unknown as { schemas: Record<string, { properties: Record<string, unknown> }> })
      .schemas;
    expect(Object.keys(schemas.Tool.properties)).toEqual(
      expect.arrayContaining(['_id', 'minimumOrderQuantity', 'availableQuantity']),
    );
    expect(Object.keys(schemas.Review.properties)).toEqual(['_id', 'name', 'Messege', 'ratings']);
    const reviews = doc.paths['/reviews'].get.responses['200'] as {
      content: Record<string, { schema: { properties: object } }>;
    };
    expect(Object.keys(reviews.content['application/json'].schema.properties)).toEqual(['services', 'count']);
    const addProduct = doc.paths['/tools'].post.requestBody!.content['application/json'].schema as {
      properties: object;
    };
    expect(Object.keys(addProduct.properties)).toContain('MinimumOrderQuantity');
  });
});

describe('GET /api/docs', () => {
  it('is a page of every call, from our own origin, with no script and a strict policy', async () => {
    const res = await runtime.request('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.data as string;
    for (const path of Object.keys(doc.paths))
      expect(html, path).toContain(`<code>/api${path.replace(/&/g, '&amp;')}</code>`);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).not.toMatch(/script-src|unsafe-inline|https?:/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    const hash = (await import('node:crypto')).createHash('sha256').update(style).digest('base64');
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
  });

  it('answers a repeated read with 304', async () => {
    const first = await runtime.request('GET', '/api/docs');
    const etag = first.headers.get('etag')!;
    expect((await runtime.request('GET', '/api/docs', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});
