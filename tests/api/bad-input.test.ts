// Malformed input, endpoint by endpoint: always a 4xx JSON error, never a 5xx, and nothing written.
// Each JSON endpoint has a valid body; every case breaks one field (or the whole body) and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, BOB, createTestRuntime, idTokenFor, type TestRuntime } from './harness';
import {
  ADDRESS,
  GOOD_CARD,
  PHONE,
  confirmSandbox,
  expectApiError,
  makeTool,
  payOrder,
  placeOrder,
  snapshot,
} from './helpers';
import { tinyPng } from './images.fixtures';

const MISSING = Symbol('missing');
const LONG = 'x'.repeat(5000);
const NUL = 'ham\u0000mer';
const SQL = "'; DROP TABLE tools; --";
const HTML = '<script>alert(1)</script>';
const UNKNOWN_ID = '0'.repeat(24);

// Values that are not a number of any kind (numeric strings such as "5" are accepted on purpose: form fields send text).
const NOT_NUMBERS = [
  MISSING,
  null,
  true,
  false,
  [],
  [5],
  {},
  { $gt: 0 },
  '',
  '   ',
  'abc',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '0x1g',
  '٣',
  SQL,
  HTML,
];
const wholeCount = (min: number) => [...NOT_NUMBERS, min - 1, -1, 1.5, 1e308, 2 ** 53, 1_000_001];
const REQUIRED_TEXT = [MISSING, null, 123, true, [], {}, ['a'], '', '   ', LONG, NUL];
const OPTIONAL_TEXT = [null, 123, true, [], {}, LONG, NUL];
const BAD_EMAILS = [
  MISSING,
  null,
  123,
  [],
  '',
  'plainaddress',
  'a@b',
  '@x.y',
  'a@b.',
  'a b@c.de',
  `${LONG}@x.yz`,
  'a\u0000b@x.yz',
  SQL,
  HTML,
];
const BAD_IDS = [
  MISSING,
  null,
  123,
  true,
  [],
  {},
  '',
  'abc',
  '0'.repeat(23),
  '0'.repeat(25),
  'ABCDEF0123456789ABCDEF01',
  SQL,
  HTML,
  '🔨'.repeat(12),
  NUL,
  LONG,
];
// Path segments, as they appear in the URL.
const BAD_ID_SEGMENTS = [
  'abc',
  '0'.repeat(23),
  '0'.repeat(25),
  'ABCDEF0123456789ABCDEF01',
  UNKNOWN_ID,
  encodeURIComponent(SQL),
  encodeURIComponent(HTML),
  encodeURIComponent('🔨'.repeat(12)),
  '%00'.repeat(24),
  'a'.repeat(5000),
  '%E0%A4%A',
  'null',
  'undefined',
  '-1',
  '1e3',
];
const BAD_EMAIL_SEGMENTS = [
  'plainaddress',
  'a%40b',
  '%40x.y',
  encodeURIComponent(SQL),
  encodeURIComponent(HTML),
  `${'a'.repeat(5000)}%40x.yz`,
  'a%00b%40x.yz',
  '%E0%A4%A',
  encodeURIComponent('zoë@münchen'),
  'nobody%40nowhere.example',
];

interface Endpoint {
  method: string;
  path: string;
  /** leaver: a fresh account, for the calls whose valid body deletes the caller. */
  caller: 'anonymous' | 'alice' | 'admin' | 'leaver';
  /** A valid body: each case breaks one field of it. */
  valid: () => Record<string, unknown>;
  fields: Record<string, unknown[]>;
  /** The status the valid body gets: proves the sweep broke only what it meant to. */
  ok: number;
}

let runtime: TestRuntime;
const tokens: Record<string, string> = {};
const fx = {
  webhookId: '',
  quoteId: '',
  acceptQuote: '',
  shipOrder: '',
  refundOrder: '',
  leaverIdToken: '',
  reviewId: '',
  contactId: '',
  toolId: '',
  order: '',
  intentOrder: '',
  clientSecret: '',
  payOrder: '',
  transactionId: '',
  otherTransaction: '',
  bobOrder: '',
  freshOrder: '',
};
let ip = 0;

async function call(
  method: string,
  url: string,
  caller: Endpoint['caller'],
  init: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
) {
  // Every call its own client address, so rate limits never stand in for validation.
  const headers = { 'x-test-ip': `sweep-${++ip}`, ...init.headers };
  return runtime.request(method, url, {
    token: caller === 'anonymous' ? null : tokens[caller],
    json: init.json,
    body: init.body,
    headers,
  });
}

/** Runs one refused call and checks the three promises: 4xx, JSON error, nothing written. */
async function expectRefused(run: () => Promise<{ status: number; data: any }>) {
  const before = await snapshot(runtime);
  const res = await run();
  expectApiError(res);
  expect(await snapshot(runtime)).toEqual(before);
}

const label = (v: unknown) =>
  v === MISSING
    ? 'missing'
    : typeof v === 'string' && v.length > 40
      ? `"${v.slice(0, 12)}…" (${v.length} chars)`
      : JSON.stringify(v);

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/api/tools',
    caller: 'admin',
    ok: 201,
    valid: () => ({
      name: 'Anvil',
      description: 'Cast steel.',
      price: 99.99,
      minimumOrderQuantity: 1,
      availableQuantity: 10,
      img: '/images/tools/anvil.svg',
    }),
    fields: {
      name: REQUIRED_TEXT,
      description: [...REQUIRED_TEXT.filter((v) => v !== LONG), 'd'.repeat(2001)],
      price: [...NOT_NUMBERS, 0, -1, -0.01, 0.001, 12.345, 1e308, 1_000_001],
      minimumOrderQuantity: wholeCount(1),
      availableQuantity: wholeCount(0),
      img: [
        MISSING,
        null,
        123,
        '',
        'javascript:alert(1)',
        'http://insecure.example/x.png',
        'data:image/png;base64,AAAA',
        '/etc/passwd',
        `https://x.example/${LONG}`,
        `https://x.example/"${HTML}`,
        NUL,
      ],
      priceBreaks: [
        null,
        'x',
        {},
        [null],
        [{}],
        [{ minQuantity: 1, price: 9 }],
        [{ minQuantity: 5, price: 100 }],
        [{ minQuantity: 5, price: 0 }],
        [
          { minQuantity: 5, price: 9 },
          { minQuantity: 5, price: 8 },
        ],
        Array.from({ length: 6 }, (_, i) => ({ minQuantity: 5 + i, price: 90 - i })),
      ],
      packSize: [...NOT_NUMBERS.filter((v) => v !== MISSING && v !== null && v !== ''), 0, -1, 1.5, 2],
      quoteAbove: [...NOT_NUMBERS.filter((v) => v !== MISSING && v !== null && v !== ''), 0, -1, 1.5],
      lowStockUnits: [...NOT_NUMBERS.filter((v) => v !== MISSING && v !== null && v !== ''), -1, 1.5],
    },
  },
  {
    method: 'PUT',
    path: '/api/tools/{toolId}',
    caller: 'admin',
    ok: 200,
    valid: () => ({
      name: 'Anvil',
      description: 'Cast steel.',
      price: 99.99,
      minimumOrderQuantity: 2,
      img: '/images/tools/anvil.svg',
      packSize: 2,
      priceBreaks: [{ minQuantity: 10, price: 90 }],
    }),
    fields: {
      name: REQUIRED_TEXT,
      price: [...NOT_NUMBERS, 0, -1, 12.345],
      minimumOrderQuantity: [...wholeCount(1).filter((v) => v !== MISSING), 3],
      priceBreaks: [null, [{ minQuantity: 2, price: 9 }], [{ minQuantity: 10, price: 99.99 }]],
    },
  },
  {
    method: 'POST',
    path: '/api/tools',
    caller: 'admin',
    ok: 201,
    valid: () => ({
      name: 'Anvil',
      description: 'Cast steel.',
      price: 99.99,
      MinimumOrderQuantity: 2,
      availableQuantity: 10,
      img: '/images/tools/anvil.svg',
    }),
    fields: { MinimumOrderQuantity: wholeCount(1).filter((v) => v !== MISSING) },
  },
  {
    method: 'PUT',
    path: '/api/tool/update/{toolId}',
    caller: 'admin',
    ok: 200,
    valid: () => ({ availableQuantity: 5000 }),
    fields: { availableQuantity: wholeCount(0) },
  },
  {
    method: 'POST',
    path: '/api/booking',
    caller: 'alice',
    ok: 201,
    valid: () => ({ toolId: fx.toolId, quantity: 2, address: ADDRESS, phone: PHONE }),
    fields: {
      toolId: [...BAD_IDS, UNKNOWN_ID],
      quantity: [...wholeCount(1), 100_000],
      address: [...REQUIRED_TEXT.filter((v) => v !== LONG), 'a'.repeat(301)],
      phone: [
        MISSING,
        null,
        1712345678,
        true,
        [],
        '',
        '123',
        '01212345678',
        '0171234567',
        '017123456789',
        '+8801712345678x',
        '+9901712345678',
        '০১৭১২৩৪৫৬৭৮',
        `${PHONE}' OR '1'='1`,
        HTML,
        NUL,
      ],
    },
  },
  {
    method: 'POST',
    path: '/api/orders',
    caller: 'alice',
    ok: 201,
    valid: () => ({ items: [{ toolId: fx.toolId, quantity: 2 }], address: ADDRESS, phone: PHONE }),
    fields: {
      items: [
        MISSING,
        null,
        [],
        {},
        'x',
        [null],
        [{}],
        Array.from({ length: 51 }, () => ({ toolId: fx.toolId, quantity: 1 })),
        [
          { toolId: fx.toolId, quantity: 1 },
          { toolId: fx.toolId, quantity: 1 },
        ],
      ],
      'items.0.toolId': [...BAD_IDS, UNKNOWN_ID],
      'items.0.quantity': [...wholeCount(1), 100_000],
      address: [...REQUIRED_TEXT.filter((v) => v !== LONG), 'a'.repeat(301)],
      phone: [MISSING, null, 1712345678, '', '123', '01212345678', `${PHONE}' OR '1'='1`, HTML, NUL],
    },
  },
  {
    method: 'POST',
    path: '/api/create-payment-intent',
    caller: 'alice',
    ok: 200,
    valid: () => ({ orderId: fx.freshOrder }),
    fields: { orderId: [...BAD_IDS, UNKNOWN_ID, 'bob'] },
  },
  {
    method: 'POST',
    path: '/api/sandbox/confirm',
    caller: 'alice',
    ok: 200,
    valid: () => ({ clientSecret: fx.clientSecret, card: { ...GOOD_CARD } }),
    fields: {
      clientSecret: [MISSING, null, 123, [], '', 'pi_unknown_secret_x', SQL, LONG, NUL],
      card: [MISSING, null, '4242424242424242', [], 42],
      'card.number': [MISSING, null, 4242424242424242, [], '', 'x'.repeat(33), '4242 4242 4242 4241', SQL, HTML, NUL],
      'card.expMonth': [MISSING, null, true, [], 'abc', '', 0, 13, 1.5, -1],
      'card.expYear': [MISSING, null, true, [], 'abc', '', 2001, 1.5],
      'card.cvc': [MISSING, null, 123, '', '12', '12345', 'x'.repeat(9), NUL],
    },
  },
  {
    method: 'PUT',
    path: '/api/booking/makepayment/{payOrder}',
    caller: 'alice',
    ok: 200,
    valid: () => ({ appointment: fx.payOrder, transactionId: fx.transactionId }),
    fields: {
      transactionId: [
        MISSING,
        null,
        123,
        true,
        [],
        {},
        '',
        '   ',
        'pi_unknown',
        'other',
        SQL,
        HTML,
        'x'.repeat(256),
        NUL,
      ],
      appointment: [null, 123, true, [], {}],
    },
  },
  {
    method: 'POST',
    path: '/api/review',
    caller: 'alice',
    ok: 201,
    valid: () => ({ name: 'Alice', Messege: 'Good hammers.', ratings: 4.5 }),
    fields: {
      name: [...REQUIRED_TEXT, 'n'.repeat(21)],
      Messege: [...REQUIRED_TEXT.filter((v) => v !== LONG), 'm'.repeat(2001)],
      ratings: [...NOT_NUMBERS, 0, 0.99, 5.01, 6, -1, 4.555, 1e308],
      // Optional (the spec's general review); a tool's must be one that exists and the caller paid for.
      toolId: [...BAD_IDS.filter((v) => v !== MISSING), UNKNOWN_ID],
    },
  },
  {
    method: 'PUT',
    path: '/api/reviews/hide/{reviewId}',
    caller: 'admin',
    ok: 200,
    valid: () => ({ hidden: false }),
    fields: { hidden: [MISSING, null, 'true', 'false', 1, 0, [], {}, '', NUL] },
  },
  {
    // A well-formed token that is not a fresh sign-in of the caller is refused too (403, account.test.ts).
    method: 'DELETE',
    path: '/api/account',
    caller: 'leaver',
    ok: 200,
    valid: () => ({ idToken: fx.leaverIdToken }),
    fields: {
      idToken: [
        MISSING,
        null,
        123,
        true,
        [],
        {},
        ['a.b.c'],
        '',
        '   ',
        'abc',
        'a.b',
        'a.b.c.d',
        'a..c',
        `${'x'.repeat(9000)}.b.c`,
        LONG,
        NUL,
        SQL,
        HTML,
        'a.b.c',
      ],
    },
  },
  {
    method: 'PUT',
    path: '/api/userupdate/{alice}',
    caller: 'alice',
    ok: 200,
    valid: () => ({
      name: 'Alice',
      education: 'BSc',
      social: 'https://example.com/alice',
      phoneNumber: '01712345678',
      address: ADDRESS,
    }),
    fields: {
      name: REQUIRED_TEXT,
      education: OPTIONAL_TEXT,
      social: [...OPTIONAL_TEXT, 'javascript:alert(1)', 'example.com', HTML, 'https://a b'],
      phoneNumber: [null, true, [], {}, 'abc', '123', '1'.repeat(16), 1e20, -5, SQL, HTML, NUL],
      address: [...OPTIONAL_TEXT.filter((v) => v !== LONG), 'a'.repeat(301)],
    },
  },
  {
    method: 'PUT',
    path: '/api/contact/{contactId}/read',
    caller: 'admin',
    ok: 200,
    valid: () => ({ read: true }),
    fields: { read: [MISSING, null, 'true', 'false', 1, 0, [], {}, '', NUL] },
  },
  {
    method: 'POST',
    path: '/api/contact',
    caller: 'anonymous',
    ok: 201,
    valid: () => ({ name: 'Visitor', email: 'visitor@example.com', message: 'Do you ship abroad?' }),
    fields: {
      name: REQUIRED_TEXT,
      email: BAD_EMAILS,
      message: [...REQUIRED_TEXT.filter((v) => v !== LONG), 'm'.repeat(2001)],
    },
  },
  {
    method: 'POST',
    path: '/api/quotes',
    caller: 'alice',
    ok: 201,
    valid: () => ({ items: [{ toolId: fx.toolId, quantity: 500 }], note: 'For a site' }),
    fields: {
      items: [
        MISSING,
        null,
        [],
        {},
        'x',
        [null],
        [{}],
        Array.from({ length: 51 }, () => ({ toolId: fx.toolId, quantity: 2 })),
        [
          { toolId: fx.toolId, quantity: 2 },
          { toolId: fx.toolId, quantity: 3 },
        ],
      ],
      'items.0.toolId': [...BAD_IDS, UNKNOWN_ID],
      // Below the tool's minimum order (2); a quote is not bound by stock, so 100,000 is fine.
      'items.0.quantity': [...wholeCount(1), 1],
      note: [null, 123, true, [], {}, 'n'.repeat(2001), NUL],
    },
  },
  {
    method: 'PUT',
    path: '/api/quotes/{quoteId}/answer',
    caller: 'admin',
    ok: 200,
    valid: () => ({
      lines: [{ toolId: fx.toolId, price: 9.5 }],
      expiresAt: new Date(runtime.deps.now().getTime() + 7 * 86_400_000).toISOString(),
    }),
    fields: {
      lines: [
        MISSING,
        null,
        [],
        {},
        'x',
        [null],
        [{}],
        [
          { toolId: fx.toolId, price: 9 },
          { toolId: fx.toolId, price: 8 },
        ],
      ],
      'lines.0.toolId': [...BAD_IDS, UNKNOWN_ID],
      'lines.0.price': [...NOT_NUMBERS, 0, -1, -0.01, 0.001, 1e308, 1_000_001],
      expiresAt: [
        MISSING,
        null,
        123,
        true,
        [],
        {},
        '',
        'tomorrow',
        '2020-01-01',
        '2020-01-01T00:00:00Z',
        '2026-13-45',
        '31/12/2099',
        LONG,
        NUL,
        SQL,
        HTML,
      ],
    },
  },
  {
    method: 'POST',
    path: '/api/quotes/{acceptQuote}/accept',
    caller: 'alice',
    ok: 201,
    valid: () => ({ address: ADDRESS, phone: PHONE }),
    fields: {
      address: [...REQUIRED_TEXT.filter((v) => v !== LONG), 'a'.repeat(301)],
      phone: [MISSING, null, 1712345678, '', '123', '01212345678', `${PHONE}' OR '1'='1`, HTML, NUL],
    },
  },
  {
    method: 'PUT',
    path: '/api/booking/ship/{shipOrder}',
    caller: 'admin',
    ok: 200,
    valid: () => ({ carrier: 'DHL', trackingNumber: 'JD0146000' }),
    fields: {
      carrier: [...REQUIRED_TEXT, 'c'.repeat(61)],
      trackingNumber: [...REQUIRED_TEXT, 't'.repeat(61), '-leading-dash', 'JD<0146>', SQL, '١٢٣'],
    },
  },
  {
    // The tests allow private targets (WEBHOOK_ALLOW_PRIVATE=1); webhook-delivery.test.ts refuses them without it.
    method: 'POST',
    path: '/api/webhooks',
    caller: 'admin',
    ok: 201,
    valid: () => ({ url: 'http://127.0.0.1:9/hooks', events: ['order.paid', 'tool.created'] }),
    fields: {
      url: [
        MISSING,
        null,
        123,
        true,
        [],
        {},
        '',
        '   ',
        'example.com/hooks',
        'ftp://example.com/x',
        'javascript:alert(1)',
        'https://user:pw@example.com/',
        'http://',
        'https://exa mple.com/',
        `https://x.example/${LONG}`,
        NUL,
        HTML,
        SQL,
      ],
      events: [
        MISSING,
        null,
        'order.paid',
        [],
        {},
        [null],
        [1],
        ['order.exploded'],
        ['ORDER.PAID'],
        ['order.paid', 'order.paid'],
        Array.from({ length: 11 }, () => 'order.paid'),
        [LONG],
        [NUL],
      ],
    },
  },
  {
    method: 'PUT',
    path: '/api/booking/refund/{refundOrder}',
    caller: 'admin',
    ok: 200,
    valid: () => ({ restock: true, amount: 1.5 }),
    fields: {
      restock: [MISSING, null, 'true', 1, [], {}],
      amount: [null, '', 'all', true, [], {}, 0, -1, 0.001, 1e308, 'NaN', SQL],
    },
  },
];

function url(path: string) {
  return path
    .replace('{toolId}', fx.toolId)
    .replace('{payOrder}', fx.payOrder)
    .replace('{shipOrder}', fx.shipOrder)
    .replace('{refundOrder}', fx.refundOrder)
    .replace('{reviewId}', fx.reviewId)
    .replace('{contactId}', fx.contactId)
    .replace('{quoteId}', fx.quoteId)
    .replace('{acceptQuote}', fx.acceptQuote)
    .replace('{alice}', ALICE);
}

function withField(body: Record<string, unknown>, field: string, value: unknown) {
  const copy = structuredClone(body);
  // A dotted field (card.number, items.0.quantity) is set inside its parents.
  const path = field.split('.');
  const key = path.pop()!;
  const target = path.reduce((parent, step) => parent[step] as Record<string, unknown>, copy);
  if (value === MISSING) delete target[key];
  else target[key] = value === 'bob' ? fx.bobOrder : value === 'other' ? fx.otherTransaction : value;
  return copy;
}

beforeAll(async () => {
  // Alice posts a review per case: the per-user review limit must not stand in for validation either.
  runtime = await createTestRuntime({ env: { REVIEW_RATE_LIMIT: '100000' } });
  [{ id: fx.reviewId }] = await runtime.db.query<{ id: string }>('SELECT id FROM reviews ORDER BY ordinal LIMIT 1');
  tokens.admin = await runtime.tokenFor(ADMIN);
  tokens.alice = await runtime.tokenFor(ALICE);
  const leaver = `leaver-${Date.now().toString(36)}@test.example`;
  tokens.leaver = await runtime.tokenFor(leaver);
  fx.leaverIdToken = await idTokenFor(leaver);
  const bob = await runtime.tokenFor(BOB);
  fx.toolId = await makeTool(runtime, tokens.admin, { availableQuantity: 1000, minimumOrderQuantity: 2 });
  fx.order = await placeOrder(runtime, tokens.alice, fx.toolId, 2);
  fx.bobOrder = await placeOrder(runtime, bob, fx.toolId, 2);
  fx.freshOrder = await placeOrder(runtime, tokens.alice, fx.toolId, 2);
  fx.intentOrder = await placeOrder(runtime, tokens.alice, fx.toolId, 2);
  fx.clientSecret = (
    await runtime.request('POST', '/api/create-payment-intent', {
      token: tokens.alice,
      json: { orderId: fx.intentOrder },
    })
  ).data.clientSecret;
  fx.payOrder = await placeOrder(runtime, tokens.alice, fx.toolId, 2);
  fx.transactionId = await confirmSandbox(runtime, tokens.alice, fx.payOrder);
  fx.otherTransaction = await confirmSandbox(runtime, tokens.alice, fx.order);
  fx.shipOrder = await placeOrder(runtime, tokens.alice, fx.toolId, 2);
  await payOrder(runtime, tokens.alice, fx.shipOrder);
  fx.refundOrder = await placeOrder(runtime, tokens.alice, fx.toolId, 2);
  await payOrder(runtime, tokens.alice, fx.refundOrder);
  const quote = async () =>
    (await call('POST', '/api/quotes', 'alice', { json: { items: [{ toolId: fx.toolId, quantity: 4 }] } })).data
      .insertedId as string;
  fx.quoteId = await quote();
  fx.acceptQuote = await quote();
  await call('PUT', `/api/quotes/${fx.acceptQuote}/answer`, 'admin', {
    json: {
      lines: [{ toolId: fx.toolId, price: 9 }],
      expiresAt: new Date(runtime.deps.now().getTime() + 86_400_000).toISOString(),
    },
  });
  fx.webhookId = (
    await call('POST', '/api/webhooks', 'admin', { json: { url: 'http://127.0.0.1:9/hooks', events: ['order.paid'] } })
  ).data.id;
  fx.contactId = (
    await call('POST', '/api/contact', 'anonymous', {
      json: { name: 'Visitor', email: 'visitor@example.com', message: 'Hello' },
    })
  ).data.insertedId;
});
afterAll(() => runtime.close());

describe.each(
  ENDPOINTS.map(
    (e, i) =>
      [
        `${e.method} ${e.path}${ENDPOINTS.findIndex((o) => o.path === e.path) === i ? '' : ' (spec spelling)'}`,
        e,
      ] as const,
  ),
)('%s', (_, endpoint) => {
  const cases = Object.entries(endpoint.fields).flatMap(([field, values]) =>
    values.map((value) => [`${field} = ${label(value)}`, field, value] as const),
  );
  it.each(cases)('refuses %s', async (_name, field, value) => {
    await expectRefused(() =>
      call(endpoint.method, url(endpoint.path), endpoint.caller, { json: withField(endpoint.valid(), field, value) }),
    );
  });

  const raw = (body: string, type?: string) => () =>
    call(endpoint.method, url(endpoint.path), endpoint.caller, { body, headers: type ? { 'content-type': type } : {} });
  const valid = () => JSON.stringify(endpoint.valid());
  it.each([
    ['malformed JSON', raw('{"name": "Anvil",', 'application/json'), 400],
    ['an empty body', raw('', 'application/json'), 400],
    ['a JSON array', raw('[]', 'application/json'), 400],
    ['JSON null', raw('null', 'application/json'), 400],
    ['a JSON string', raw('"hello"', 'application/json'), 400],
    ['no content type', () => raw(valid())(), 415],
    ['text/plain', () => raw(valid(), 'text/plain')(), 415],
    ['a form', raw('name=Anvil&price=1', 'application/x-www-form-urlencoded'), 415],
    ['a body over 64 kB', raw(JSON.stringify({ pad: 'p'.repeat(70_000) }), 'application/json'), 413],
  ] as const)('refuses %s', async (_name, run, status) => {
    await expectRefused(async () => {
      const res = await run();
      expect(res.status, JSON.stringify(res.data)).toBe(status);
      return res;
    });
  });

  it(`accepts the valid body (${endpoint.ok})`, async () => {
    const res = await call(endpoint.method, url(endpoint.path), endpoint.caller, { json: endpoint.valid() });
    expect(res.status, JSON.stringify(res.data)).toBe(endpoint.ok);
  });
});

describe('path parameters', () => {
  const ID_ROUTES: [string, string, Endpoint['caller']][] = [
    ['GET', '/api/tools/{}', 'anonymous'],
    ['DELETE', '/api/tools/dlt/{}', 'admin'],
    ['PUT', '/api/tool/update/{}', 'admin'],
    ['PUT', '/api/tools/{}', 'admin'],
    ['GET', '/api/tools/{}/ledger', 'admin'],
    ['GET', '/api/tools/{}/edit', 'admin'],
    ['DELETE', '/api/discounts/{}', 'admin'],
    ['GET', '/api/booking/{}', 'admin'],
    ['DELETE', '/api/booking/dlt/{}', 'admin'],
    ['PUT', '/api/booking/ship/{}', 'admin'],
    ['PUT', '/api/booking/deliver/{}', 'admin'],
    ['PUT', '/api/booking/refund/{}', 'admin'],
    ['GET', '/api/booking/{}/invoice', 'admin'],
    ['POST', '/api/emails/{}/resend', 'admin'],
    ['PUT', '/api/booking/makepayment/{}', 'alice'],
    ['GET', '/api/images/{}', 'anonymous'],
    ['PUT', '/api/reviews/hide/{}', 'admin'],
    ['PUT', '/api/contact/{}/read', 'admin'],
    ['GET', '/api/tools/{}/reviews', 'anonymous'],
    ['GET', '/api/tools/{}/reviews/eligibility', 'alice'],
    ['GET', '/api/quotes/{}', 'admin'],
    ['PUT', '/api/quotes/{}/answer', 'admin'],
    ['POST', '/api/quotes/{}/accept', 'alice'],
    ['POST', '/api/quotes/{}/decline', 'alice'],
    ['DELETE', '/api/webhooks/{}', 'admin'],
    ['POST', '/api/webhooks/{}/resume', 'admin'],
    ['GET', '/api/webhooks/{}/deliveries', 'admin'],
    ['POST', `/api/webhooks/{}/deliveries/msg_${'0'.repeat(32)}/replay`, 'admin'],
  ];
  const EMAIL_ROUTES: [string, string, Endpoint['caller']][] = [
    ['GET', '/api/admin/{}', 'admin'],
    ['GET', '/api/userprofile/{}', 'admin'],
    ['GET', '/api/booking/email/{}', 'admin'],
    ['DELETE', '/api/allusers/dlt/{}', 'admin'],
    ['PUT', '/api/allusers/makeadmin/{}', 'admin'],
  ];
  const BODIES: Record<string, unknown> = {
    '/api/tool/update/{}': { availableQuantity: 10 },
    '/api/tools/{}': {
      name: 'Anvil',
      description: 'Cast steel.',
      price: 99.99,
      minimumOrderQuantity: 2,
      img: '/images/tools/anvil.svg',
    },
    '/api/booking/makepayment/{}': { transactionId: 'pi_unknown' },
    '/api/reviews/hide/{}': { hidden: true },
    '/api/booking/refund/{}': { restock: false },
    '/api/contact/{}/read': { read: true },
    '/api/quotes/{}/answer': { lines: [{ toolId: UNKNOWN_ID, price: 9 }], expiresAt: '2099-12-31' },
    '/api/quotes/{}/accept': { address: ADDRESS, phone: PHONE },
  };
  const idCases = ID_ROUTES.flatMap(([method, path, caller]) =>
    BAD_ID_SEGMENTS.map((s) => [`${method} ${path.replace('{}', label(s))}`, method, path, caller, s] as const),
  );
  it.each(idCases)('refuses %s', async (_name, method, path, caller, segment) => {
    await expectRefused(() =>
      call(method, path.replace('{}', segment), caller, { json: method === 'GET' ? undefined : BODIES[path] }),
    );
  });

  // Well-formed emails of nobody are answered normally by the reads (an empty list, admin: false).
  const readsOfNobody = new Set(['/api/admin/{}', '/api/booking/email/{}']);
  const emailCases = EMAIL_ROUTES.flatMap(([method, path, caller]) =>
    BAD_EMAIL_SEGMENTS.filter((s) => !(readsOfNobody.has(path) && s === 'nobody%40nowhere.example')).map(
      (s) => [`${method} ${path.replace('{}', label(s))}`, method, path, caller, s] as const,
    ),
  );
  it.each(emailCases)('refuses %s', async (_name, method, path, caller, segment) => {
    await expectRefused(() => call(method, path.replace('{}', segment), caller));
  });

  const DELIVERY_SEGMENTS = [
    'abc',
    'msg_',
    `msg_${'g'.repeat(32)}`,
    `msg_${'0'.repeat(31)}`,
    `msg_${'0'.repeat(33)}`,
    `MSG_${'0'.repeat(32)}`,
    `msg_${'0'.repeat(32)}`,
    encodeURIComponent(SQL),
    '%00'.repeat(36),
    'a'.repeat(5000),
    '%E0%A4%A',
  ];
  it.each(DELIVERY_SEGMENTS.map((s) => [label(s), s] as const))(
    'refuses POST /api/webhooks/{id}/deliveries/%s/replay',
    async (_name, segment) => {
      await expectRefused(() => call('POST', `/api/webhooks/${fx.webhookId}/deliveries/${segment}/replay`, 'admin'));
    },
  );

  it.each(BAD_EMAIL_SEGMENTS)('PUT /user/%s with a valid ID token is refused', async (segment) => {
    const idToken = await idTokenFor(ALICE);
    await expectRefused(() =>
      runtime.request('PUT', `/api/user/${segment}`, {
        token: idToken,
        json: { email: ALICE },
        headers: { 'x-test-ip': `user-${++ip}` },
      }),
    );
  });
});

describe('GET /reviews query', () => {
  const cases = [
    ...['0', '-1', '101', 'abc', '1.5', 'NaN', 'Infinity', '1e9', '', encodeURIComponent(SQL), '%00'].map(
      (v) => `limit=${v}`,
    ),
    ...['-1', 'abc', '1.5', 'NaN', 'Infinity', '1e9', encodeURIComponent(HTML)].map((v) => `pageNumber=${v}`),
  ];
  it.each(cases)('refuses ?%s', async (query) => {
    await expectRefused(() => call('GET', `/api/reviews?${query}`, 'anonymous'));
  });
  it.each(cases)('refuses ?%s on the moderation list', async (query) => {
    await expectRefused(() => call('GET', `/api/reviews/moderation?${query}`, 'admin'));
  });
});

describe('dashboard list paging query', () => {
  const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
  const cases = [
    ...['0', '-1', '101', 'abc', '1.5', 'NaN', 'Infinity', '1e9', '', encodeURIComponent(SQL), '%00'].map(
      (v) => `limit=${v}`,
    ),
    ...[
      '',
      '%25',
      encodeURIComponent(SQL),
      encodeURIComponent(HTML),
      'a'.repeat(601),
      cursor('x'),
      cursor([]),
      cursor({ seq: 1 }),
      'bm90IGpzb24',
    ].map((v) => `cursor=${v}`),
  ];
  const LISTS: [string, Endpoint['caller']][] = [
    ['/api/allusers', 'admin'],
    ['/api/tools', 'anonymous'],
    ['/api/booking', 'admin'],
    [`/api/booking/email/${ALICE}`, 'alice'],
    ['/api/contact', 'admin'],
    ['/api/audit', 'admin'],
    ['/api/quotes', 'alice'],
  ];
  const listCases = LISTS.flatMap(([path, caller]) =>
    cases.map((q) => [`GET ${path}?${q.slice(0, 40)}`, path, caller, q] as const),
  );
  it.each(listCases)('refuses %s', async (_name, path, caller, query) => {
    await expectRefused(() => call('GET', `${path}?${query}`, caller));
  });
  it.each(cases.map((q) => [q.slice(0, 40), q] as const))(
    'refuses GET /api/webhooks/{id}/deliveries?%s',
    async (_name, query) => {
      await expectRefused(() => call('GET', `/api/webhooks/${fx.webhookId}/deliveries?${query}`, 'admin'));
    },
  );
});

describe('GET /tools/{id}/reviews query', () => {
  const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
  const cases = [
    ...['0', '-1', '21', 'abc', '1.5', 'NaN', 'Infinity', '1e9', '', encodeURIComponent(SQL), '%00'].map(
      (v) => `limit=${v}`,
    ),
    ...[
      '',
      '%25',
      encodeURIComponent(SQL),
      encodeURIComponent(HTML),
      'a'.repeat(601),
      cursor('x'),
      cursor(-1),
      cursor(1.5),
      cursor(2 ** 31),
      cursor([]),
      cursor({ ordinal: 1 }),
      'bm90IGpzb24',
    ].map((v) => `cursor=${v}`),
  ];
  it.each(cases.map((q) => [q.slice(0, 40), q] as const))('refuses ?%s', async (_name, query) => {
    await expectRefused(() => call('GET', `/api/tools/${fx.toolId}/reviews?${query}`, 'anonymous'));
  });
});

describe('POST /images body', () => {
  it.each([
    ['JSON instead of multipart', () => ({ json: { image: 'x' } })],
    [
      'a form without the image field',
      () => {
        const form = new FormData();
        form.append('picture', new Blob([tinyPng()], { type: 'image/png' }), 'dot.png');
        return { body: form };
      },
    ],
    [
      'the image field as text',
      () => {
        const form = new FormData();
        form.append('image', 'not a file');
        return { body: form };
      },
    ],
    [
      'a broken multipart body',
      () => ({
        body: '--xyz\r\nContent-Disposition: form-data; name="image"\r\n\r\nabc',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      }),
    ],
    [
      'a multipart type without a boundary',
      () => ({ body: 'abc', headers: { 'content-type': 'multipart/form-data' } }),
    ],
  ] as const)('refuses %s', async (_name, make) => {
    await expectRefused(() => call('POST', '/api/images', 'admin', make() as never));
  });
});

describe('metacharacters and unicode in free text are stored verbatim, never interpreted', () => {
  it('a review full of SQL, HTML and unicode reads back exactly', async () => {
    const review = { name: 'Zoë 🔨 ভালো', Messege: `${SQL} ${HTML} \u202Eevil\u202C مرحبا 😀 \\ " \``, ratings: 3.25 };
    const res = await call('POST', '/api/review', 'alice', { json: review });
    expect(res.status).toBe(201);
    const { data } = await call('GET', '/api/reviews?limit=1&pageNumber=0', 'anonymous');
    expect(data.services[0]).toMatchObject(review);
    expect((await call('GET', '/api/tools', 'anonymous')).data.length).toBeGreaterThan(0);
  });
  it('an order address with SQL and HTML is kept as text', async () => {
    const address = `${SQL}\n${HTML} Road 5, ঢাকা`;
    const res = await call('POST', '/api/booking', 'alice', {
      json: { toolId: fx.toolId, quantity: 2, address, phone: `+88${PHONE}` },
    });
    expect(res.status).toBe(201);
    expect((await call('GET', `/api/booking/${res.data.insertedId}`, 'alice')).data.address).toBe(address);
  });
});

describe('GET /quotes query', () => {
  const cases = [
    '',
    'open',
    'REQUESTED',
    'expired,answered',
    encodeURIComponent(SQL),
    encodeURIComponent(HTML),
    '%00',
    'a'.repeat(5000),
  ].map((v) => `state=${v}`);
  it.each(cases)('refuses ?%s', async (query) => {
    await expectRefused(() => call('GET', `/api/quotes?${query}`, 'admin'));
  });
});

describe('GET /audit query', () => {
  const cases = [
    '',
    'order.placed',
    'contact.received',
    'TOOL.RESTOCKED',
    'tool',
    encodeURIComponent(SQL),
    encodeURIComponent(HTML),
    '%00',
    'a'.repeat(5000),
  ].map((v) => `type=${v}`);
  it.each(cases)('refuses ?%s', async (query) => {
    await expectRefused(() => call('GET', `/api/audit?${query}`, 'admin'));
  });
});

describe('GET /export/orders.csv query', () => {
  const cases = [
    ...[
      '',
      '2024-13-01',
      '2024-02-30',
      '24-01-01',
      '2024-1-1',
      'today',
      encodeURIComponent(SQL),
      encodeURIComponent(HTML),
      '%00',
      'a'.repeat(5000),
    ].map((v) => `from=${v}`),
    ...['2024-00-10', '2024-01-32', encodeURIComponent(SQL)].map((v) => `to=${v}`),
    'from=2024-02-01&to=2024-01-31',
  ];
  it.each(cases.map((q) => [q.slice(0, 40), q] as const))('refuses ?%s', async (_name, query) => {
    await expectRefused(() => call('GET', `/api/export/orders.csv?${query}`, 'admin'));
  });
});

describe('POST /import/tools body', () => {
  const header = 'name,description,img,price,minimumOrderQuantity,availableQuantity';
  it.each([
    ['JSON', { json: { name: 'x' } }],
    ['an empty CSV body', { body: '', headers: { 'content-type': 'text/csv' } }],
    ['a CSV body with missing columns', { body: 'name\r\nHammer\r\n', headers: { 'content-type': 'text/csv' } }],
    [
      'a CSV body with a quote never closed',
      { body: `${header}\r\n"Hammer,d,/images/tools/anvil.svg,1,1,1\r\n`, headers: { 'content-type': 'text/csv' } },
    ],
    [
      'a row in error, applied',
      {
        body: `${header}\r\n${SQL},${HTML},/images/tools/anvil.svg,-1,0,1\r\n`,
        headers: { 'content-type': 'text/csv' },
        apply: true,
      },
    ],
    [
      'a row with a NUL, applied',
      {
        body: `${header}\r\n${NUL},d,/images/tools/anvil.svg,1,1,1\r\n`,
        headers: { 'content-type': 'text/csv' },
        apply: true,
      },
    ],
  ] as const)('refuses %s', async (_name, init) => {
    const { apply, ...rest } = { apply: false, ...init };
    await expectRefused(() => call('POST', `/api/import/tools${apply ? '?apply=1' : ''}`, 'admin', rest as never));
  });
});
