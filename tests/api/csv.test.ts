// Issue 26, CSV in and out: the exports open in a spreadsheet (BOM, RFC 4180 quoting, no formula runs),
// are admin only and streamed a page at a time; the tools import is a dry run by default and, with
// ?apply=1, writes every row or none, with a stock ledger row per stock change and one audit event.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_CSV_COLUMNS, TOOL_CSV_COLUMNS } from '../../src/lib/exchange';
import { exchangeService } from '../../src/server/exchange/exchange.service';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { ADDRESS, PHONE, expectApiError, makeTool, payOrder, placeOrder, snapshot } from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let serial = 0;
const unique = () => `${Date.now().toString(36)}${++serial}`;
const BOM = '\uFEFF';
const IMG = '/images/tools/ball-peen-hammer.svg';

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
});
afterAll(() => runtime.close());

/**
 * A GET read as bytes: the harness's text() would drop the BOM, which is what is under test. The text
 * keeps it (ignoreBOM); an error's JSON is parsed.
 */
async function get(
  url: string,
  token: string | null = admin,
): Promise<{ status: number; data: any; headers: Headers }> {
  const response = await runtime.app.request(
    url,
    { headers: token ? { authorization: `Bearer ${token}` } : {} },
    { clientAddress: '127.0.0.1' },
  );
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  const isJson = response.headers.get('content-type')?.startsWith('application/json');
  return { status: response.status, data: isJson ? JSON.parse(text) : text, headers: response.headers };
}
const importCsv = (
  body: string | Uint8Array,
  { apply = false, token = admin as string | null, type = 'text/csv' } = {},
) =>
  runtime.request('POST', `/api/import/tools${apply ? '?apply=1' : ''}`, {
    token,
    body: body as BodyInit,
    headers: { 'content-type': type },
  });

/** A file as a spreadsheet would save it: the header, then the rows. */
const csvOf = (header: readonly string[], rows: (string | number | null)[][]) =>
  stringify([[...header], ...rows], { record_delimiter: 'windows' });
/** A tools file with the export's columns; each row gives the columns it sets. */
const toolsFile = (rows: Partial<Record<(typeof TOOL_CSV_COLUMNS)[number], string | number>>[]) =>
  csvOf(
    TOOL_CSV_COLUMNS,
    rows.map((r) => TOOL_CSV_COLUMNS.map((c) => r[c] ?? '')),
  );
const toolRow = (name: string, over: Partial<Record<(typeof TOOL_CSV_COLUMNS)[number], string | number>> = {}) => ({
  name,
  description: 'Drop-forged, for one test.',
  img: IMG,
  price: '12.50',
  minimumOrderQuantity: 10,
  availableQuantity: 200,
  ...over,
});

/** A CSV answer's records (the BOM checked and dropped), each as an object by the header. */
function records(text: string): Record<string, string>[] {
  expect(text.startsWith(BOM), 'starts with a UTF-8 BOM').toBe(true);
  return parse(text.slice(1), { columns: true });
}

const toolFromDb = async (id: string) =>
  (
    await runtime.db.query<{
      available_quantity: number;
      stock_version: number;
      name: string;
      price_cents: number;
      price_breaks: unknown;
      pack_size: number;
    }>(
      'SELECT available_quantity, stock_version, name, price_cents, price_breaks, pack_size FROM tools WHERE id = $1',
      [id],
    )
  )[0];
const ledgerOf = (id: string) =>
  runtime.db.query<{ delta: number; reason: string; balance: number; actor: string | null }>(
    'SELECT delta, reason, balance, actor FROM stock_ledger WHERE tool_id = $1 ORDER BY seq',
    [id],
  );

describe('who may use CSV in and out', () => {
  const calls: [string, (token: string | null) => Promise<{ status: number; data: any; headers: Headers }>][] = [
    ['GET /export/tools.csv', (token) => get('/api/export/tools.csv', token)],
    ['GET /export/orders.csv', (token) => get('/api/export/orders.csv?from=2024-01-01&to=2024-01-31', token)],
    ['POST /import/tools', (token) => importCsv(toolsFile([toolRow(`Authz ${unique()}`)]), { token })],
  ];
  it.each(calls)('%s: anonymous 401, a user 403, an admin 200', async (_name, call) => {
    expectApiError(await call(null), 401);
    expectApiError(await call(alice), 403);
    const res = await call(admin);
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('GET /export/tools.csv', () => {
  it('streams every tool with the import columns, a BOM, RFC 4180 quoting and the breaks as qty:price|qty:price', async () => {
    const name = `Claw hammer, "Pro" ${unique()}`;
    const description = 'Line one\nline two, with ünïcödé 🔨 and a "quote"';
    const id = await makeTool(runtime, admin, {
      name,
      description,
      minimumOrderQuantity: 10,
      price: 12.4,
      packSize: 5,
      quoteAbove: 1000,
      lowStockUnits: 25,
      priceBreaks: [
        { minQuantity: 100, price: 11.2 },
        { minQuantity: 500, price: 9.9 },
      ],
    });
    const res = await get('/api/export/tools.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="tools-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = res.data as string;
    expect(text.split('\r\n')[0]).toBe(`${BOM}${TOOL_CSV_COLUMNS.join(',')}`);
    // Quoted where RFC 4180 says: commas, quotes (doubled) and line breaks.
    expect(text).toContain(`"Claw hammer, ""Pro"" `);
    expect(text).toContain(`"Line one\nline two, with ünïcödé 🔨 and a ""quote"""`);
    const rows = records(text);
    const [{ count }] = await runtime.db.query<{ count: number }>('SELECT count(*)::int AS count FROM tools');
    expect(rows).toHaveLength(count);
    expect(rows.find((r) => r._id === id)).toEqual({
      _id: id,
      name,
      description,
      img: IMG,
      price: '12.40',
      minimumOrderQuantity: '10',
      availableQuantity: '50',
      packSize: '5',
      quoteAbove: '1000',
      lowStockUnits: '25',
      priceBreaks: '100:11.20|500:9.90',
    });
  });

  it('makes formula cells inert with a leading apostrophe, and the import takes it off again', async () => {
    const tag = unique();
    const cases = [
      `=HYPERLINK("http://evil.example","x") ${tag}`,
      `+1+cmd ${tag}`,
      `-2+3 ${tag}`,
      `@SUM(A1) ${tag}`,
      `'=already quoted ${tag}`,
    ];
    const ids: string[] = [];
    for (const name of cases) ids.push(await makeTool(runtime, admin, { name, description: `=1+1 ${tag}` }));
    const rows = records((await get('/api/export/tools.csv')).data);
    for (const [i, name] of cases.entries()) {
      const row = rows.find((r) => r._id === ids[i])!;
      expect(row.name).toBe(`'${name}`);
      expect(row.description).toBe(`'=1+1 ${tag}`);
    }
    // Tab and CR starts are formulas to some spreadsheets too (a tab needs a description: names are trimmed).
    const tabbed = await makeTool(runtime, admin, { description: `x ${tag}` });
    await runtime.db.query("UPDATE tools SET description = E'\\tcmd' WHERE id = $1", [tabbed]);
    expect(records((await get('/api/export/tools.csv')).data).find((r) => r._id === tabbed)!.description).toBe(
      "'\tcmd",
    );
    // (The tool schema trims text, so an import would store it as 'cmd': put back what a form could write.)
    await runtime.db.query('UPDATE tools SET description = $2 WHERE id = $1', [tabbed, `x ${tag}`]);
    // Read back, every name is exactly as stored: an update that changes nothing.
    const file = csvOf(
      TOOL_CSV_COLUMNS,
      rows.filter((r) => ids.includes(r._id)).map((r) => TOOL_CSV_COLUMNS.map((c) => r[c])),
    );
    const res = await importCsv(file);
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.rows.map((r: any) => [r.action, r.name])).toEqual(cases.map((name) => ['update', name]));
  });
});

describe('GET /export/orders.csv', () => {
  let toolA: string;
  let toolB: string;
  const placed: Record<string, string> = {};
  beforeAll(async () => {
    toolA = await makeTool(runtime, admin, { name: `Export anvil ${unique()}`, price: 20, availableQuantity: 500 });
    toolB = await makeTool(runtime, admin, {
      name: `=Export "tongs", ${unique()}`,
      price: 7.25,
      availableQuantity: 500,
    });
    placed.late = await placeOrder(runtime, alice, toolA, 2);
    const cart = await runtime.request('POST', '/api/orders', {
      token: alice,
      json: {
        items: [
          { toolId: toolA, quantity: 1 },
          { toolId: toolB, quantity: 4 },
        ],
        address: ADDRESS,
        phone: PHONE,
      },
    });
    expect(cart.status, JSON.stringify(cart.data)).toBe(201);
    placed.start = cart.data.insertedId;
    placed.early = await placeOrder(runtime, alice, toolB, 3);
    await payOrder(runtime, alice, placed.start);
    // Placed at the edges of 11 January 2024 (UTC).
    const at = { early: '2024-01-10T23:59:59Z', start: '2024-01-11T00:00:00Z', late: '2024-01-11T23:59:59.999Z' };
    for (const [key, when] of Object.entries(at))
      await runtime.db.query('UPDATE orders SET created_at = $2 WHERE id = $1', [placed[key], when]);
  });

  const idsIn = (rows: Record<string, string>[]) => [...new Set(rows.map((r) => r.orderId))];

  it('writes one row per order line, oldest first, with the order repeated on each line', async () => {
    const res = await get('/api/export/orders.csv?from=2024-01-10&to=2024-01-11');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="orders-2024-01-10-to-2024-01-11.csv"');
    expect((res.data as string).split('\r\n')[0]).toBe(`${BOM}${ORDER_CSV_COLUMNS.join(',')}`);
    const rows = records(res.data);
    expect(idsIn(rows)).toEqual([placed.late, placed.start, placed.early]);
    const cart = rows.filter((r) => r.orderId === placed.start);
    const [{ transaction_id: tx }] = await runtime.db.query<{ transaction_id: string }>(
      'SELECT transaction_id FROM orders WHERE id = $1',
      [placed.start],
    );
    expect(cart).toEqual([
      expect.objectContaining({
        placedAt: '2024-01-11T00:00:00Z',
        buyerName: 'alice',
        email: ALICE,
        payment: 'paid',
        shippingStatus: 'pending',
        line: '1',
        toolId: toolA,
        quantity: '1',
        unitPrice: '20.00',
        lineTotal: '20.00',
        orderTotal: '49.00',
        refunded: '0.00',
        transactionId: tx,
      }),
      expect.objectContaining({
        line: '2',
        toolId: toolB,
        quantity: '4',
        unitPrice: '7.25',
        lineTotal: '29.00',
        orderTotal: '49.00',
        transactionId: tx,
      }),
    ]);
    // The product name starts with '=': inert.
    expect(cart[1].productName.startsWith("'=Export")).toBe(true);
    expect(rows.find((r) => r.orderId === placed.early)).toMatchObject({
      payment: 'unpaid',
      transactionId: '',
      lineTotal: '21.75',
    });
  });

  it('takes the days in UTC, both ends included', async () => {
    expect(idsIn(records((await get('/api/export/orders.csv?from=2024-01-11&to=2024-01-11')).data))).toEqual([
      placed.late,
      placed.start,
    ]);
    expect(idsIn(records((await get('/api/export/orders.csv?to=2024-01-10')).data))).toEqual([placed.early]);
    expect(idsIn(records((await get('/api/export/orders.csv?from=2024-01-12&to=2024-01-31')).data))).toEqual([]);
    const all = records((await get('/api/export/orders.csv')).data);
    const [{ lines }] = await runtime.db.query<{ lines: number }>('SELECT count(*)::int AS lines FROM order_items');
    expect(all).toHaveLength(lines);
  });

  it.each([
    ['from=2024-13-01', 'from'],
    ['from=abc', 'from'],
    ['to=2024-02-30', 'to'],
    ['from=2024-01-12&to=2024-01-11', 'to'],
    [`from=${encodeURIComponent("'; DROP TABLE orders; --")}`, 'from'],
  ])('refuses ?%s with 400 naming %s', async (query, field) => {
    const res = await get(`/api/export/orders.csv?${query}`);
    expectApiError(res, 400);
    expect(Object.keys(res.data.error.fields)).toEqual([field]);
  });

  it('reads in keyset pages: every line once whatever the page size', async () => {
    const exchange = exchangeService(runtime.db, runtime.tools);
    const lines = async (size: number) => {
      const out: string[] = [];
      for await (const page of exchange.orderLinePages({}, size)) out.push(...page.map((r) => `${r.id}:${r.line}`));
      return out;
    };
    const whole = await lines(100_000);
    expect(whole.length).toBeGreaterThan(3);
    expect(await lines(1)).toEqual(whole);
    expect(await lines(2)).toEqual(whole);
    const toolIds = async (size: number) => {
      const out: string[] = [];
      for await (const page of exchange.toolPages(size)) out.push(...page.map((r) => r.id));
      return out;
    };
    expect(await toolIds(3)).toEqual(await toolIds(100_000));
  });
});

describe('POST /import/tools: the dry run', () => {
  it('reports create, update and error per row, by line, and changes nothing', async () => {
    const existing = await makeTool(runtime, admin, { name: `Dry mallet ${unique()}` });
    const byName = await makeTool(runtime, admin, { name: `Dry chisel ${unique()}` });
    const [{ name: chisel }] = await runtime.db.query<{ name: string }>('SELECT name FROM tools WHERE id = $1', [
      byName,
    ]);
    const fresh = `Dry new saw ${unique()}`;
    const file = toolsFile([
      toolRow('Renamed mallet', { _id: existing }),
      toolRow(chisel.toUpperCase()),
      toolRow(fresh, { description: 'Multi\nline, "quoted"' }),
      toolRow('', { price: 'abc', priceBreaks: '100-9' }),
      toolRow(fresh),
      toolRow(`Ghost ${unique()}`, { _id: 'f'.repeat(24) }),
      toolRow(`Bad break ${unique()}`, { priceBreaks: '5:1.00' }),
    ]);
    const before = await snapshot(runtime);
    const res = await importCsv(file);
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(await snapshot(runtime)).toEqual(before);
    expect(res.data.dryRun).toBe(true);
    expect(res.data.summary).toEqual({ create: 1, update: 2, error: 4 });
    const rows = res.data.rows;
    expect(rows[0]).toEqual({ row: 2, action: 'update', _id: existing, name: 'Renamed mallet' });
    expect(rows[1]).toEqual({ row: 3, action: 'update', _id: byName, name: chisel.toUpperCase() });
    expect(rows[2]).toEqual({ row: 4, action: 'create', name: fresh });
    // The quoted cell spans two lines: the next row starts on line 6.
    expect(rows[3]).toMatchObject({ row: 6, action: 'error', name: '' });
    expect(rows[3].errors.map((e: any) => e.column).sort()).toEqual(['name', 'price', 'priceBreaks']);
    expect(rows[4]).toMatchObject({
      row: 7,
      action: 'error',
      errors: [{ column: 'name', message: expect.stringContaining('line 4') }],
    });
    expect(rows[5]).toMatchObject({
      row: 8,
      action: 'error',
      errors: [{ column: '_id', message: 'No tool has this _id' }],
    });
    expect(rows[6]).toMatchObject({
      row: 9,
      action: 'error',
      errors: [{ column: 'priceBreaks', message: expect.stringMatching(/^Break 1: /) }],
    });
  });

  it('asks for the _id when two tools share the name, and refuses two rows for one tool', async () => {
    const name = `Twin ${unique()}`;
    await makeTool(runtime, admin, { name });
    await makeTool(runtime, admin, { name });
    const one = await makeTool(runtime, admin, { name: `Single ${unique()}` });
    const res = await importCsv(
      toolsFile([toolRow(name), toolRow('First name', { _id: one }), toolRow('Second name', { _id: one })]),
    );
    expect(res.data.rows.map((r: any) => [r.action, r.errors?.[0].column])).toEqual([
      ['error', 'name'],
      ['update', undefined],
      ['error', '_id'],
    ]);
  });
});

describe('POST /import/tools?apply=1', () => {
  it('creates and updates in one go: stock changes bump stock_version and write import ledger rows, one audit event', async () => {
    const kept = await makeTool(runtime, admin, { name: `Apply kept ${unique()}`, availableQuantity: 40 });
    const moved = await makeTool(runtime, admin, { name: `Apply moved ${unique()}`, availableQuantity: 40 });
    const [keptBefore, movedBefore] = [await toolFromDb(kept), await toolFromDb(moved)];
    const created = `Apply new ${unique()}`;
    const file = toolsFile([
      toolRow(keptBefore.name, { _id: kept, availableQuantity: 40, price: '15.00' }),
      toolRow(`${movedBefore.name} v2`, {
        _id: moved,
        availableQuantity: 75,
        packSize: 5,
        priceBreaks: '100:11.20|500:9.90',
      }),
      toolRow(created, { availableQuantity: 120 }),
    ]);
    const [{ n: eventsBefore }] = await runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    const res = await importCsv(file, { apply: true });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data).toMatchObject({ dryRun: false, summary: { create: 1, update: 2, error: 0 } });
    const newId = res.data.rows[2]._id;
    expect(newId).toMatch(/^[0-9a-f]{24}$/);

    expect(await toolFromDb(kept)).toMatchObject({
      price_cents: 1500,
      available_quantity: 40,
      stock_version: keptBefore.stock_version,
    });
    expect(await toolFromDb(moved)).toMatchObject({
      name: `${movedBefore.name} v2`,
      available_quantity: 75,
      stock_version: movedBefore.stock_version + 1,
      pack_size: 5,
      price_breaks: [
        { minQuantity: 100, priceCents: 1120 },
        { minQuantity: 500, priceCents: 990 },
      ],
    });
    expect(await toolFromDb(newId)).toMatchObject({ name: created, available_quantity: 120 });
    // The ledger: no row for a stock that did not move; each balance is the stock.
    expect((await ledgerOf(kept)).filter((m) => m.reason === 'import')).toEqual([]);
    expect((await ledgerOf(moved)).at(-1)).toEqual({ delta: 35, reason: 'import', balance: 75, actor: ADMIN });
    expect(await ledgerOf(newId)).toEqual([{ delta: 120, reason: 'import', balance: 120, actor: ADMIN }]);

    const events = await runtime.db.query<{ type: string; subject: string; actor: string; data: any }>(
      'SELECT type, subject, actor, data FROM events ORDER BY seq OFFSET $1',
      [eventsBefore],
    );
    // One audit event for the file, and one per tool written, which webhooks send as tool.updated or tool.created.
    expect(events.filter((e) => e.type === 'tools.imported')).toEqual([
      {
        type: 'tools.imported',
        subject: 'tools',
        actor: ADMIN,
        data: { target: '3 tools', before: null, after: { created: 1, updated: 2 } },
      },
    ]);
    const perTool = events
      .filter((e) => e.type !== 'tools.imported')
      .map((e) => [e.type, e.subject, e.data.tool.name, e.data.tool.availableQuantity]);
    expect(perTool.sort()).toEqual(
      [
        ['tool.updated_by_import', kept, keptBefore.name, 40],
        ['tool.updated_by_import', moved, `${movedBefore.name} v2`, 75],
        ['tool.added_by_import', newId, created, 120],
      ].sort(),
    );
    const audit = await get('/api/audit?type=tools.imported');
    expect(audit.data.items[0]).toMatchObject({ type: 'tools.imported', actor: ADMIN, target: '3 tools' });
    // The catalogue's cache was dropped: the public read shows the import at once.
    const catalogue = (await get('/api/tools', null)).data as { _id: string; availableQuantity: number }[];
    expect(catalogue.find((t) => t._id === moved)?.availableQuantity).toBe(75);
    expect(catalogue.some((t) => t._id === newId)).toBe(true);
  });

  it('writes nothing when one row is wrong: 422 with the same per-row report', async () => {
    const tool = await makeTool(runtime, admin, { name: `All or nothing ${unique()}`, availableQuantity: 10 });
    const rows = [
      toolRow(`Fine ${unique()}`),
      toolRow('Changed', { _id: tool, availableQuantity: 99 }),
      toolRow(`Broken ${unique()}`, { minimumOrderQuantity: 0 }),
    ];
    const before = await snapshot(runtime);
    const res = await importCsv(toolsFile(rows), { apply: true });
    expectApiError(res, 422);
    expect(res.data).toMatchObject({ dryRun: false, summary: { create: 1, update: 1, error: 1 } });
    expect(res.data.rows[2]).toMatchObject({ row: 4, action: 'error', errors: [{ column: 'minimumOrderQuantity' }] });
    expect(await snapshot(runtime)).toEqual(before);
  });

  it('round trip: the export read back is all updates and no errors, and applying it changes no stock', async () => {
    const file = (await get('/api/export/tools.csv')).data as string;
    const dry = await importCsv(file);
    expect(dry.status, JSON.stringify(dry.data)).toBe(200);
    expect(dry.data.summary).toEqual({ create: 0, update: dry.data.rows.length, error: 0 });
    const ledgerBefore = await runtime.db.query('SELECT count(*)::int AS n FROM stock_ledger');
    const versions = await runtime.db.query('SELECT id, stock_version, available_quantity FROM tools ORDER BY id');
    const applied = await importCsv(file, { apply: true });
    expect(applied.status, JSON.stringify(applied.data)).toBe(200);
    expect(await runtime.db.query('SELECT count(*)::int AS n FROM stock_ledger')).toEqual(ledgerBefore);
    expect(await runtime.db.query('SELECT id, stock_version, available_quantity FROM tools ORDER BY id')).toEqual(
      versions,
    );
    expect((await get('/api/export/tools.csv')).data).toBe(file);
  });
});

describe('POST /import/tools: a bad file changes nothing', () => {
  const header = TOOL_CSV_COLUMNS.join(',');
  it.each([
    ['an empty file', '', 400, /empty/],
    ['only blank lines', '\r\n,,\r\n', 400, /empty/],
    ['a header and no rows', `${header}\r\n`, 400, /no rows/],
    [
      'missing columns',
      'name,description\r\nHammer,Heavy\r\n',
      400,
      /Missing column\(s\): img, price, minimumOrderQuantity, availableQuantity/,
    ],
    ['an unknown column', `${header},colour\r\n`, 400, /Unknown column\(s\): colour/],
    ['a column twice', `${header},name\r\n`, 400, /given twice: name/],
    ['a quote never closed', `${header}\r\n,"Hammer,d,${IMG},1,1,1,,,,\r\n`, 400, /not valid CSV/],
    [
      'text that is not UTF-8',
      new Uint8Array([...new TextEncoder().encode(`${header}\r\n,Hammer `), 0xe9, 0x0d, 0x0a]),
      400,
      /not UTF-8/,
    ],
  ] as const)('refuses %s', async (_name, body, status, message) => {
    const before = await snapshot(runtime);
    const res = await importCsv(body as string, { apply: true });
    expectApiError(res, status);
    expect(res.data.error.message).toMatch(message);
    expect(await snapshot(runtime)).toEqual(before);
  });

  it.each(['application/json', 'text/plain', 'multipart/form-data; boundary=x', ''])(
    'refuses Content-Type %j with 415',
    async (type) => {
      const res = await importCsv(toolsFile([toolRow(`Typed ${unique()}`)]), { type, apply: true });
      expectApiError(res, 415);
    },
  );

  it('takes a charset parameter and a header in another order and case', async () => {
    const res = await runtime.request('POST', '/api/import/tools', {
      token: admin,
      body: csvOf(
        ['AvailableQuantity', 'NAME', 'description', 'img', 'price', 'minimumOrderQuantity'],
        [[5, `Cased ${unique()}`, 'd', IMG, '3', 1]],
      ),
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.summary).toEqual({ create: 1, update: 0, error: 0 });
  });

  it('refuses ?apply=yes with 400', async () => {
    const res = await runtime.request('POST', '/api/import/tools?apply=yes', {
      token: admin,
      body: toolsFile([toolRow('x')]),
      headers: { 'content-type': 'text/csv' },
    });
    expectApiError(res, 400);
  });

  it('refuses a body over 20 MB with 413', async () => {
    const res = await importCsv(`${header}\r\n${'x'.repeat(20 * 1024 * 1024 + 1)}`, { apply: true });
    expectApiError(res, 413);
    expect(res.data.error.message).toMatch(/20 MB/);
  });
});

describe('10,000 rows', () => {
  it(
    'import in under 30 s each way: 10,000 creates, then the export back with new stock as 10,000 updates',
    { timeout: 180_000 },
    async () => {
      const tag = unique();
      const rows = Array.from({ length: 10_000 }, (_, i) =>
        toolRow(`Bulk ${tag} ${i}`, {
          description: `Bulk tool ${i}, "quoted" and\nmultiline`,
          availableQuantity: i % 500,
          priceBreaks: '100:11.20|500:9.90',
        }),
      );
      let started = performance.now();
      const created = await importCsv(toolsFile(rows), { apply: true });
      const createMs = performance.now() - started;
      expect(created.status, JSON.stringify(created.data).slice(0, 500)).toBe(200);
      expect(created.data.summary).toEqual({ create: 10_000, update: 0, error: 0 });
      expect(createMs).toBeLessThan(30_000);

      // Export (more than one page) and bring every stock up by 7.
      const exported = records((await get('/api/export/tools.csv')).data).filter((r) =>
        r.name.startsWith(`Bulk ${tag} `),
      );
      expect(exported).toHaveLength(10_000);
      const file = csvOf(
        TOOL_CSV_COLUMNS,
        exported.map((r) => TOOL_CSV_COLUMNS.map((c) => (c === 'availableQuantity' ? Number(r[c]) + 7 : r[c]))),
      );
      started = performance.now();
      const updated = await importCsv(file, { apply: true });
      const updateMs = performance.now() - started;
      expect(updated.status).toBe(200);
      expect(updated.data.summary).toEqual({ create: 0, update: 10_000, error: 0 });
      expect(updateMs).toBeLessThan(30_000);
      console.info(
        `10,000-row import (${runtime.db.kind}): creates ${Math.round(createMs)} ms, updates ${Math.round(updateMs)} ms`,
      );

      // The ledger's invariant holds for every imported tool: its newest balance is its stock.
      const [{ off }] = await runtime.db.query<{ off: number }>(
        `SELECT count(*)::int AS off FROM tools t
       WHERE t.name LIKE $1 AND t.available_quantity <> coalesce((SELECT balance FROM stock_ledger l WHERE l.tool_id = t.id ORDER BY seq DESC LIMIT 1), 0)`,
        [`Bulk ${tag} %`],
      );
      expect(off).toBe(0);
    },
  );
});
