// DESIGN.md "Who may call what", as one table: every endpoint × every kind of caller.
// Each call carries a valid body for an existing resource, so only authorization decides the status.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiContracts } from '../../src/lib/contracts/api';
import type { RouteContract } from '../../src/lib/contracts/route';
import { signAccessToken } from '../../src/server/auth/jwt';
import { ADMIN, ALICE, BOB, createTestRuntime, emulatorIdToken, idTokenFor, type TestRuntime } from './harness';
import { ADDRESS, PHONE, GOOD_CARD, confirmSandbox, expectApiError, makeTool, payOrder, placeOrder } from './helpers';
import { tinyPng } from './images.fixtures';

type Caller = 'anonymous' | 'user' | 'other' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'user', 'other', 'admin'];
const EMAIL: Record<Exclude<Caller, 'anonymous'>, string> = { user: ALICE, other: BOB, admin: ADMIN };

interface Call {
  url: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Overrides the caller's access token (PUT /user takes a Firebase ID token instead). */
  token?: string | null;
}

let runtime: TestRuntime;
const access: Partial<Record<Caller, string>> = {};
// Resources owned by the signed-in "user" (Alice), made in beforeAll.
const fx = {
  webhookId: '',
  toolId: '',
  order: '',
  confirmedOrder: '',
  transactionId: '',
  paidOrder: '',
  clientSecret: '',
  contactId: '',
  quoteId: '',
  image: '',
};
let serial = 0;
const unique = () => `${Date.now().toString(36)}${++serial}`;

async function victim(): Promise<string> {
  const email = `victim-${unique()}@test.example`;
  await runtime.db.query('INSERT INTO users (email, name) VALUES ($1, $2)', [email, 'Victim']);
  return email;
}

/** A fresh paid order of Alice's. */
async function paidOrder(): Promise<string> {
  const id = await placeOrder(runtime, access.user!, fx.toolId);
  await payOrder(runtime, access.user!, id);
  return id;
}

/** A fresh quote request of Alice's, answered by an admin when asked. */
async function aliceQuote(answered = false): Promise<string> {
  const asked = await runtime.request('POST', '/api/quotes', {
    token: access.user,
    json: { items: [{ toolId: fx.toolId, quantity: 2 }] },
  });
  if (answered) {
    const expiresAt = new Date(runtime.deps.now().getTime() + 86_400_000).toISOString();
    await runtime.request('PUT', `/api/quotes/${asked.data.insertedId}/answer`, {
      token: access.admin,
      json: { lines: [{ toolId: fx.toolId, price: 9 }], expiresAt },
    });
  }
  return asked.data.insertedId;
}

/** A fresh webhook endpoint (nothing listens at its address: its deliveries are never sent here). */
async function webhook(): Promise<string> {
  const made = await runtime.request('POST', '/api/webhooks', {
    token: access.admin,
    json: { url: 'http://127.0.0.1:9/authz', events: ['order.paid'] },
  });
  return made.data.id;
}

async function anyReview(): Promise<string> {
  const [{ id }] = await runtime.db.query<{ id: string }>('SELECT id FROM reviews ORDER BY ordinal DESC LIMIT 1');
  return id;
}

//           call                                  anonymous user other admin   how to make a valid call
const TABLE: [string, [number, number, number, number], (caller: Caller) => Promise<Call> | Call][] = [
  ['GET /tools', [200, 200, 200, 200], () => ({ url: '/api/tools' })],
  ['GET /tools?limit= (a page)', [200, 200, 200, 200], () => ({ url: '/api/tools?limit=10' })],
  ['GET /tools/{id}', [200, 200, 200, 200], () => ({ url: `/api/tools/${fx.toolId}` })],
  ['GET /reviews', [200, 200, 200, 200], () => ({ url: '/api/reviews?limit=5&pageNumber=0' })],
  [
    'PUT /user/{email}',
    [401, 200, 401, 401],
    async (caller) => ({
      url: `/api/user/${ALICE}`,
      json: { email: ALICE },
      token: caller === 'anonymous' ? null : await idTokenFor(EMAIL[caller]),
    }),
  ],
  ['GET /admin/{email}', [401, 200, 403, 200], () => ({ url: `/api/admin/${ALICE}` })],
  ['GET /userprofile/{email}', [401, 200, 403, 200], () => ({ url: `/api/userprofile/${ALICE}` })],
  ['GET /booking/email/{email}', [401, 200, 403, 200], () => ({ url: `/api/booking/email/${ALICE}` })],
  [
    'GET /booking/email/{email}?limit= (a page)',
    [401, 200, 403, 200],
    () => ({ url: `/api/booking/email/${ALICE}?limit=10` }),
  ],
  [
    'PUT /userupdate/{email}',
    [401, 200, 403, 403],
    () => ({
      url: `/api/userupdate/${ALICE}`,
      json: {
        name: 'Alice',
        education: 'BSc',
        social: 'https://example.com/alice',
        phoneNumber: '01712345678',
        address: ADDRESS,
      },
    }),
  ],
  [
    'POST /booking',
    [401, 201, 201, 201],
    () => ({
      url: '/api/booking',
      json: { toolId: fx.toolId, quantity: 1, address: ADDRESS, phone: PHONE },
    }),
  ],
  [
    'POST /orders (a cart)',
    [401, 201, 201, 201],
    () => ({
      url: '/api/orders',
      json: { items: [{ toolId: fx.toolId, quantity: 1 }], address: ADDRESS, phone: PHONE },
    }),
  ],
  ['GET /booking/{id}', [401, 200, 403, 200], () => ({ url: `/api/booking/${fx.order}` })],
  [
    'DELETE /booking/dlt/{id} (unpaid)',
    [401, 200, 403, 200],
    async () => ({
      url: `/api/booking/dlt/${await placeOrder(runtime, access.user!, fx.toolId)}`,
    }),
  ],
  [
    'POST /create-payment-intent',
    [401, 200, 403, 403],
    () => ({
      url: '/api/create-payment-intent',
      json: { orderId: fx.order, price: 1234 },
    }),
  ],
  [
    'POST /sandbox/confirm',
    [401, 200, 403, 403],
    () => ({
      url: '/api/sandbox/confirm',
      json: { clientSecret: fx.clientSecret, card: GOOD_CARD },
    }),
  ],
  [
    'PUT /booking/makepayment/{id}',
    [401, 200, 403, 403],
    () => ({
      url: `/api/booking/makepayment/${fx.confirmedOrder}`,
      json: { appointment: fx.confirmedOrder, transactionId: fx.transactionId },
    }),
  ],
  [
    'POST /review',
    [401, 201, 201, 201],
    () => ({
      url: '/api/review',
      json: { name: 'Reviewer', Messege: 'Solid hammers.', ratings: 4.5 },
    }),
  ],
  [
    'POST /review (a tool: its paid buyers)',
    [401, 201, 403, 403],
    () => ({
      url: '/api/review',
      json: { name: 'Reviewer', Messege: 'Bought and used it.', ratings: 5, toolId: fx.toolId },
    }),
  ],
  ['GET /tools/{id}/reviews', [200, 200, 200, 200], () => ({ url: `/api/tools/${fx.toolId}/reviews?limit=5` })],
  [
    'GET /tools/{id}/reviews/eligibility',
    [401, 200, 200, 200],
    () => ({ url: `/api/tools/${fx.toolId}/reviews/eligibility` }),
  ],
  ['GET /account/export (their own data)', [401, 200, 200, 200], () => ({ url: '/api/account/export' })],
  // Each signed-in caller who may delete themself is a fresh account (a row per call); the admin is an owner.
  [
    'DELETE /account (freshly re-authenticated)',
    [401, 200, 200, 403],
    async (caller) => {
      if (caller !== 'user' && caller !== 'other')
        return { url: '/api/account', json: { idToken: await idTokenFor(caller === 'admin' ? ADMIN : ALICE) } };
      const email = `leaver-${unique()}@test.example`;
      return { url: '/api/account', token: await runtime.tokenFor(email), json: { idToken: await idTokenFor(email) } };
    },
  ],
  ['GET /reviews/moderation', [401, 403, 403, 200], () => ({ url: '/api/reviews/moderation?limit=5&pageNumber=0' })],
  [
    'PUT /reviews/hide/{id}',
    [401, 403, 403, 200],
    async () => ({ url: `/api/reviews/hide/${await anyReview()}`, json: { hidden: false } }),
  ],
  ['GET /booking', [401, 403, 403, 200], () => ({ url: '/api/booking' })],
  ['GET /booking?limit= (a page)', [401, 403, 403, 200], () => ({ url: '/api/booking?limit=10' })],
  ['GET /allusers', [401, 403, 403, 200], () => ({ url: '/api/allusers' })],
  ['GET /allusers?limit= (a page)', [401, 403, 403, 200], () => ({ url: '/api/allusers?limit=10' })],
  [
    'POST /tools',
    [401, 403, 403, 201],
    () => ({
      url: '/api/tools',
      json: {
        name: 'Mallet',
        description: 'Rubber.',
        price: 9.5,
        minimumOrderQuantity: 2,
        availableQuantity: 30,
        img: '/images/tools/rubber-mallet.svg',
      },
    }),
  ],
  [
    'DELETE /tools/dlt/{id}',
    [401, 403, 403, 200],
    async () => ({ url: `/api/tools/dlt/${await makeTool(runtime, access.admin!)}` }),
  ],
  [
    'PUT /tool/update/{id}',
    [401, 403, 403, 200],
    () => ({ url: `/api/tool/update/${fx.toolId}`, json: { availableQuantity: 500 } }),
  ],
  [
    'PUT /tools/{id} (Edit product)',
    [401, 403, 403, 200],
    () => ({
      url: `/api/tools/${fx.toolId}`,
      json: {
        name: 'Mallet',
        description: 'Rubber.',
        price: 9.5,
        minimumOrderQuantity: 1,
        img: '/images/tools/rubber-mallet.svg',
        priceBreaks: [{ minQuantity: 10, price: 9 }],
      },
    }),
  ],
  ['GET /tools/{id}/edit', [401, 403, 403, 200], () => ({ url: `/api/tools/${fx.toolId}/edit` })],
  ['GET /tools/{id}/ledger', [401, 403, 403, 200], () => ({ url: `/api/tools/${fx.toolId}/ledger?limit=5` })],
  [
    'GET /tools?sort=low-stock (Manage products)',
    [401, 403, 403, 200],
    () => ({ url: '/api/tools?limit=5&sort=low-stock' }),
  ],
  ['DELETE /allusers/dlt/{email}', [401, 403, 403, 200], async () => ({ url: `/api/allusers/dlt/${await victim()}` })],
  [
    'PUT /allusers/makeadmin/{email}',
    [401, 403, 403, 200],
    async () => ({ url: `/api/allusers/makeadmin/${await victim()}` }),
  ],
  [
    'POST /images',
    [401, 403, 403, 201],
    () => {
      const form = new FormData();
      form.append('image', new Blob([tinyPng()], { type: 'image/png' }), 'dot.png');
      return { url: '/api/images', body: form };
    },
  ],
  ['PUT /booking/ship/{id} (paid)', [401, 403, 403, 200], () => ({ url: `/api/booking/ship/${fx.paidOrder}` })],
  [
    'PUT /booking/ship/{id} (with tracking)',
    [401, 403, 403, 200],
    async () => ({
      url: `/api/booking/ship/${await paidOrder()}`,
      json: { carrier: 'DHL', trackingNumber: 'JD0146000' },
    }),
  ],
  [
    'PUT /booking/deliver/{id} (shipped)',
    [401, 403, 403, 200],
    async () => {
      const id = await paidOrder();
      await runtime.request('PUT', `/api/booking/ship/${id}`, { token: access.admin });
      return { url: `/api/booking/deliver/${id}` };
    },
  ],
  [
    'PUT /booking/refund/{id} (paid)',
    [401, 403, 403, 200],
    async () => ({ url: `/api/booking/refund/${await paidOrder()}`, json: { restock: false } }),
  ],
  ['GET /booking/{id}/invoice (paid)', [401, 200, 403, 200], () => ({ url: `/api/booking/${fx.paidOrder}/invoice` })],
  ['GET /emails', [401, 403, 403, 200], () => ({ url: '/api/emails?limit=5' })],
  [
    'POST /emails/{id}/resend',
    [401, 403, 403, 200],
    async () => {
      await runtime.outbox.run();
      const [{ id }] = await runtime.db.query<{ id: string }>('SELECT id FROM emails ORDER BY seq LIMIT 1');
      return { url: `/api/emails/${id}/resend` };
    },
  ],
  ['GET /contact (the inbox)', [401, 403, 403, 200], () => ({ url: '/api/contact?limit=10' })],
  [
    'PUT /contact/{id}/read',
    [401, 403, 403, 200],
    () => ({ url: `/api/contact/${fx.contactId}/read`, json: { read: true } }),
  ],
  ['GET /audit (the audit log)', [401, 403, 403, 200], () => ({ url: '/api/audit?limit=10' })],
  ['GET /audit?type= (one action)', [401, 403, 403, 200], () => ({ url: '/api/audit?type=tool.restocked' })],
  // Quotes: anyone signed in asks; its buyer and admins see one (anyone else is not told it exists);
  // admins answer; only its buyer accepts or declines (an admin, who may see it, is refused).
  [
    'POST /quotes',
    [401, 201, 201, 201],
    () => ({ url: '/api/quotes', json: { items: [{ toolId: fx.toolId, quantity: 2 }], note: 'Price for two?' } }),
  ],
  ['GET /quotes', [401, 200, 200, 200], () => ({ url: '/api/quotes' })],
  ['GET /quotes?limit= (a page)', [401, 200, 200, 200], () => ({ url: '/api/quotes?limit=10&state=requested' })],
  ['GET /quotes/{id}', [401, 200, 404, 200], () => ({ url: `/api/quotes/${fx.quoteId}` })],
  [
    'PUT /quotes/{id}/answer',
    [401, 403, 403, 200],
    () => ({
      url: `/api/quotes/${fx.quoteId}/answer`,
      json: {
        lines: [{ toolId: fx.toolId, price: 9.5 }],
        expiresAt: new Date(runtime.deps.now().getTime() + 86_400_000).toISOString(),
      },
    }),
  ],
  [
    'POST /quotes/{id}/accept (answered)',
    [401, 201, 404, 403],
    async () => ({ url: `/api/quotes/${await aliceQuote(true)}/accept`, json: { address: ADDRESS, phone: PHONE } }),
  ],
  [
    'POST /quotes/{id}/decline',
    [401, 200, 404, 403],
    async () => ({ url: `/api/quotes/${await aliceQuote()}/decline` }),
  ],
  ['GET /settings', [200, 200, 200, 200], () => ({ url: '/api/settings' })],
  [
    'PUT /settings',
    [401, 403, 403, 200],
    () => ({ url: '/api/settings', json: { deliveryFlat: 0, vatRate: 0, pricesIncludeVat: false } }),
  ],
  ['GET /discounts', [401, 403, 403, 200], () => ({ url: '/api/discounts' })],
  [
    'POST /discounts',
    [401, 403, 403, 201],
    () => ({
      url: '/api/discounts',
      json: { code: `AUTH${unique()}`.replace(/[^A-Za-z0-9]/g, '').slice(0, 30), percentOff: 5 },
    }),
  ],
  [
    'DELETE /discounts/{id}',
    [401, 403, 403, 200],
    async (caller) => {
      const made = await runtime.request('POST', '/api/discounts', {
        token: access.admin,
        json: { code: `DEL${unique()}`.replace(/[^A-Za-z0-9]/g, '').slice(0, 30), amountOff: 1 },
      });
      void caller;
      return { url: `/api/discounts/${made.data.insertedId}` };
    },
  ],
  // Outgoing webhooks (issue 29): admins only.
  ['GET /webhooks', [401, 403, 403, 200], () => ({ url: '/api/webhooks' })],
  [
    'POST /webhooks',
    [401, 403, 403, 201],
    () => ({ url: '/api/webhooks', json: { url: 'http://127.0.0.1:9/authz', events: ['order.paid'] } }),
  ],
  ['DELETE /webhooks/{id}', [401, 403, 403, 200], async () => ({ url: `/api/webhooks/${await webhook()}` })],
  ['POST /webhooks/{id}/resume', [401, 403, 403, 200], () => ({ url: `/api/webhooks/${fx.webhookId}/resume` })],
  [
    'GET /webhooks/{id}/deliveries',
    [401, 403, 403, 200],
    () => ({ url: `/api/webhooks/${fx.webhookId}/deliveries?limit=5` }),
  ],
  [
    'POST /webhooks/{id}/deliveries/{deliveryId}/replay',
    [401, 403, 403, 200],
    async () => {
      const [{ id }] = await runtime.db.query<{ id: string }>(
        'SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 LIMIT 1',
        [fx.webhookId],
      );
      return { url: `/api/webhooks/${fx.webhookId}/deliveries/${id}/replay` };
    },
  ],
  [
    'POST /quote-totals',
    [200, 200, 200, 200],
    () => ({ url: '/api/quote-totals', json: { items: [{ toolId: fx.toolId, quantity: 1 }] } }),
  ],
  ['GET /export/tools.csv', [401, 403, 403, 200], () => ({ url: '/api/export/tools.csv' })],
  [
    'GET /export/orders.csv?from&to',
    [401, 403, 403, 200],
    () => ({ url: '/api/export/orders.csv?from=2024-01-01&to=2024-12-31' }),
  ],
  [
    'POST /import/tools (a dry run)',
    [401, 403, 403, 200],
    () => ({
      url: '/api/import/tools',
      body: `name,description,img,price,minimumOrderQuantity,availableQuantity\r\nImported mallet,Rubber.,/images/tools/rubber-mallet.svg,9.50,1,30\r\n`,
      headers: { 'content-type': 'text/csv' },
    }),
  ],
  ['GET /images/{name}', [200, 200, 200, 200], () => ({ url: fx.image })],
  // The API about itself: alive, ready, and its description (issue 29).
  ['GET /health', [200, 200, 200, 200], () => ({ url: '/api/health' })],
  ['GET /ready', [200, 200, 200, 200], () => ({ url: '/api/ready' })],
  ['GET /openapi.json', [200, 200, 200, 200], () => ({ url: '/api/openapi.json' })],
  ['GET /docs', [200, 200, 200, 200], () => ({ url: '/api/docs' })],
  [
    'POST /contact',
    [201, 201, 201, 201],
    () => ({
      url: '/api/contact',
      json: { name: 'Visitor', email: 'visitor@example.com', message: 'Do you ship to Chittagong?' },
      headers: { 'x-test-ip': `contact-${unique()}` },
    }),
  ],
];

beforeAll(async () => {
  runtime = await createTestRuntime();
  for (const caller of ['user', 'other', 'admin'] as const) access[caller] = await runtime.tokenFor(EMAIL[caller]);
  fx.webhookId = await webhook();
  fx.toolId = await makeTool(runtime, access.admin!, { availableQuantity: 1000 });
  fx.order = await placeOrder(runtime, access.user!, fx.toolId);
  fx.confirmedOrder = await placeOrder(runtime, access.user!, fx.toolId);
  fx.transactionId = await confirmSandbox(runtime, access.user!, fx.confirmedOrder);
  fx.paidOrder = await placeOrder(runtime, access.user!, fx.toolId);
  await payOrder(runtime, access.user!, fx.paidOrder);
  const intentOrder = await placeOrder(runtime, access.user!, fx.toolId);
  fx.clientSecret = (
    await runtime.request('POST', '/api/create-payment-intent', { token: access.user, json: { orderId: intentOrder } })
  ).data.clientSecret;
  fx.quoteId = await aliceQuote();
  const form = new FormData();
  form.append('image', new Blob([tinyPng()], { type: 'image/png' }), 'dot.png');
  fx.image = (await runtime.request('POST', '/api/images', { token: access.admin, body: form })).data.data.url;
  fx.contactId = (
    await runtime.request('POST', '/api/contact', {
      json: { name: 'Visitor', email: 'visitor@example.com', message: 'Is the anvil in stock?' },
      headers: { 'x-test-ip': 'authorization-fixture' },
    })
  ).data.insertedId;
});
afterAll(() => runtime.close());

// The public reads: the same answer for everyone, cached by browsers and proxies (ETag). Every other
// answer is private or carries a secret (an access token, a client secret), so no cache may keep it.
const PUBLIC_READS = new Set([
  'GET /tools',
  'GET /tools?limit= (a page)',
  'GET /tools/{id}',
  'GET /reviews',
  'GET /tools/{id}/reviews',
  'GET /images/{name}',
  'GET /openapi.json',
  'GET /docs',
]);

/** Calls the table leaves to their own suites, each with its reason. */
const ELSEWHERE: Record<string, string> = {
  'POST /webhooks/stripe': "only with Stripe configured; Stripe's signature decides (payments.test.ts)",
};

it('has a row for every call the contracts declare (src/lib/contracts/)', () => {
  const rows = new Set(TABLE.map(([call]) => call.split(/[ ?]/).slice(0, 2).join(' ')));
  const calls = Object.values(apiContracts).flatMap((group) =>
    Object.values(group as Record<string, RouteContract>).map((c) => `${c.method.toUpperCase()} ${c.path}`),
  );
  expect(calls.filter((call) => !rows.has(call) && !(call in ELSEWHERE))).toEqual([]);
});

describe('who may call what', () => {
  for (const [call, statuses, make] of TABLE) {
    const method = call.split(' ')[0];
    for (const [i, caller] of CALLERS.entries()) {
      const expected = statuses[i];
      it(`${call} as ${caller} → ${expected}`, async () => {
        const c = await make(caller);
        const token = 'token' in c ? c.token : caller === 'anonymous' ? null : access[caller];
        const res = await runtime.request(method, c.url, { token, json: c.json, body: c.body, headers: c.headers });
        expect(res.status, JSON.stringify(res.data)).toBe(expected);
        if (expected === 401) expect(res.data.error.code).toBe('unauthorized');
        if (expected === 403) expect(res.data.error.code).toBe('forbidden');
        if (!PUBLIC_READS.has(call)) expect(res.headers.get('cache-control'), 'Cache-Control').toBe('no-store');
      });
    }
  }
});

describe('access tokens', () => {
  const probe = (token: string) => runtime.request('GET', `/api/admin/${ALICE}`, { token });

  it("refuses a deleted user's token at once", async () => {
    const email = `erin-${unique()}@test.example`;
    const token = await runtime.tokenFor(email);
    expect((await runtime.request('GET', `/api/admin/${email}`, { token })).status).toBe(200);
    expect((await runtime.request('DELETE', `/api/allusers/dlt/${email}`, { token: access.admin })).status).toBe(200);
    const res = await runtime.request('GET', `/api/admin/${email}`, { token });
    expectApiError(res, 401);
  });

  it.each([
    ['garbage', async () => 'not-a-token'],
    ['forged (another secret)', () => signAccessToken(new TextEncoder().encode('x'.repeat(48)), ALICE)],
    ['expired', () => signAccessToken(runtime.deps.jwtSecret, ALICE, Date.now() - 2 * 3600_000)],
    [
      'issued to another sign-in account for the same email',
      () => signAccessToken(runtime.deps.jwtSecret, ALICE, Date.now(), 'uid-of-an-earlier-account'),
    ],
    [
      'unsigned (alg none)',
      async () => {
        const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        return `${b64({ alg: 'none' })}.${b64({ sub: ALICE, iss: 'ironcrest-store', exp: Math.floor(Date.now() / 1000) + 600 })}.`;
      },
    ],
    [
      'another issuer',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(ALICE)
          .setIssuer('elsewhere')
          .setExpirationTime('1h')
          .sign(runtime.deps.jwtSecret),
    ],
    ['a Firebase ID token', () => idTokenFor(ALICE)],
  ])('refuses a %s access token (401)', async (_, make) => {
    expectApiError(await probe(await make()), 401);
  });

  it('refuses a malformed Authorization header (401)', async () => {
    const res = await runtime.request('GET', `/api/admin/${ALICE}`, {
      headers: { authorization: `Basic ${access.user}` },
    });
    expectApiError(res, 401);
  });
});

describe('PUT /user/{email}: the token exchange', () => {
  const exchange = (idToken: string, email = ALICE, ip = 'exchange') =>
    runtime.request('PUT', `/api/user/${email}`, { token: idToken, json: { email }, headers: { 'x-test-ip': ip } });

  it('refuses an ID token for a different email (401)', async () => {
    expectApiError(await exchange(await idTokenFor(BOB)), 401);
  });
  it.each([
    ['malformed', () => 'garbage.token.here'],
    ['expired', () => emulatorIdToken(ALICE, { expiresIn: -10 })],
    ['for another project', () => emulatorIdToken(ALICE, { projectId: 'demo-elsewhere' })],
    ['our own access token', () => access.user!],
  ])('refuses a %s ID token (401)', async (_, make) => {
    expectApiError(await exchange(make()), 401);
  });
  it('is rate limited per client address (429), other clients unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await exchange('garbage', ALICE, 'greedy-client')).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await exchange('garbage', ALICE, 'greedy-client');
    expectApiError(limited, 429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await exchange(await idTokenFor(ALICE), ALICE, 'polite-client')).status).toBe(200);
  });
});

describe('POST /contact: anyone, rate limited', () => {
  it('refuses a flood from one client address (429) without storing it; other clients still get through', async () => {
    const send = (ip: string) =>
      runtime.request('POST', '/api/contact', {
        json: { name: 'Flood', email: 'flood@example.com', message: 'Hello again' },
        headers: { 'x-test-ip': ip },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send('flooding-client')).status);
    expect(statuses[0]).toBe(201);
    expect(statuses.at(-1)).toBe(429);
    const [{ n }] = await runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contact_messages WHERE name = 'Flood'`,
    );
    expect(n).toBe(statuses.filter((s) => s === 201).length);
    expect((await send('quiet-client')).status).toBe(201);
  });
});
