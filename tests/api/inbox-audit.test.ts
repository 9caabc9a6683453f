// Issue 25, the contact inbox and the audit log: a message is stored with its 'contact.received' event
// in one transaction, and admins page through the messages and mark them read; every admin action
// writes exactly one audit event (actor, before → after) with its change, and the log is read only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_TYPES } from '../../src/lib/audit';
import { contactService } from '../../src/server/contact/contact.service';
import type { Db, Queryable } from '../../src/server/db/client';
import { emit } from '../../src/server/events/events.service';
import { toolsService } from '../../src/server/tools/tools.service';
import { ADMIN, ALICE, createTestRuntime, type TestRuntime } from './harness';
import { expectApiError, makeTool } from './helpers';

let runtime: TestRuntime;
let admin: string;
let alice: string;
let serial = 0;
const unique = () => `${Date.now().toString(36)}${++serial}`;

beforeAll(async () => {
  runtime = await createTestRuntime();
  admin = await runtime.tokenFor(ADMIN);
  alice = await runtime.tokenFor(ALICE);
});
afterAll(() => runtime.close());

/** The store's database, except that writing an event fails: a change made with its event must roll back. */
function failingEvents(db: Db): Db {
  const guard = (q: Queryable): Queryable => ({
    ...q,
    query: (sql, params) =>
      /INSERT INTO events\b/.test(sql)
        ? Promise.reject(new Error('the event could not be written'))
        : q.query(sql, params),
  });
  return { ...db, transaction: (fn) => db.transaction((tx) => fn(guard(tx))), query: guard(db).query } as Db;
}

const send = (message: string, name = 'Rina Das') =>
  runtime.request('POST', '/api/contact', {
    json: { name, email: 'rina.das@example.com', message },
    headers: { 'x-test-ip': `inbox-${unique()}` },
  });

const eventsAbout = (subject: string) =>
  runtime.db.query<{ type: string; actor: string | null; data: any }>(
    'SELECT type, actor, data FROM events WHERE subject = $1 ORDER BY seq',
    [subject],
  );

const eventCount = async () => (await runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events'))[0].n;

describe('POST /contact: the message and its event', () => {
  it("stores the message and writes one 'contact.received' event with it, for the email consumer", async () => {
    const res = await send('Do you ship 500 claw hammers to Chattogram?');
    expect(res).toMatchObject({
      status: 201,
      data: { acknowledged: true, insertedId: expect.stringMatching(/^[0-9a-f]{24}$/) },
    });
    const id = res.data.insertedId;
    const [row] = await runtime.db.query('SELECT name, email, message, is_read FROM contact_messages WHERE id = $1', [
      id,
    ]);
    expect(row).toEqual({
      name: 'Rina Das',
      email: 'rina.das@example.com',
      message: 'Do you ship 500 claw hammers to Chattogram?',
      is_read: false,
    });
    const events = await eventsAbout(id);
    expect(events).toEqual([
      {
        type: 'contact.received',
        actor: null,
        data: {
          name: 'Rina Das',
          email: 'rina.das@example.com',
          message: 'Do you ship 500 claw hammers to Chattogram?',
        },
      },
    ]);
    const deliveries = await runtime.db.query(
      'SELECT d.consumer, d.state FROM event_deliveries d JOIN events e ON e.seq = d.event_seq WHERE e.subject = $1',
      [id],
    );
    expect(deliveries).toEqual([{ consumer: 'email', state: 'pending' }]);
  });

  it('keeps no message when its event cannot be written (one transaction)', async () => {
    const name = `Lost ${unique()}`;
    await expect(
      contactService(failingEvents(runtime.db)).add({ name, email: 'lost@example.com', message: 'Hello?' }),
    ).rejects.toThrow(/event/);
    const rows = await runtime.db.query('SELECT id FROM contact_messages WHERE name = $1', [name]);
    expect(rows).toEqual([]);
  });
});

describe('GET /contact and PUT /contact/{id}/read: the inbox', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    for (const n of [1, 2, 3]) ids.push((await send(`Inbox message ${n}`, `Sender ${n}`)).data.insertedId);
  });

  it('pages newest first with the total and the unread count', async () => {
    const [{ total, unread }] = await runtime.db.query<{ total: number; unread: number }>(
      'SELECT count(*)::int AS total, (count(*) FILTER (WHERE NOT is_read))::int AS unread FROM contact_messages',
    );
    const first = await runtime.request('GET', '/api/contact?limit=2', { token: admin });
    expect(first.status).toBe(200);
    expect(Object.keys(first.data).sort()).toEqual(['items', 'nextCursor', 'total', 'unread']);
    expect(first.data).toMatchObject({ total, unread, nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/) });
    expect(first.data.items.map((m: { _id: string }) => m._id)).toEqual([ids[2], ids[1]]);
    expect(first.data.items[0]).toEqual({
      _id: ids[2],
      name: 'Sender 3',
      email: 'rina.das@example.com',
      message: 'Inbox message 3',
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      read: false,
    });
    const second = await runtime.request('GET', `/api/contact?limit=2&cursor=${first.data.nextCursor}`, {
      token: admin,
    });
    expect(second.data.items[0]._id).toBe(ids[0]);
    // Every message once, in order, across the pages.
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { items: { _id: string }[]; nextCursor: string | null } } = await runtime.request(
        'GET',
        `/api/contact?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: admin },
      );
      all.push(...page.data.items.map((m) => m._id));
      cursor = page.data.nextCursor;
    } while (cursor);
    expect(all).toHaveLength(total);
    expect(new Set(all).size).toBe(total);
    expect(all.slice(0, 3)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('marks a message read and unread again; the unread count follows', async () => {
    const unread = async () =>
      (await runtime.request('GET', '/api/contact?limit=1', { token: admin })).data.unread as number;
    const before = await unread();
    const read = await runtime.request('PUT', `/api/contact/${ids[1]}/read`, { token: admin, json: { read: true } });
    expect(read).toMatchObject({ status: 200, data: { acknowledged: true, matchedCount: 1, modifiedCount: 1 } });
    expect(await unread()).toBe(before - 1);
    const page = (await runtime.request('GET', '/api/contact?limit=3', { token: admin })).data;
    expect(page.items.find((m: { _id: string }) => m._id === ids[1]).read).toBe(true);
    expect(
      (await runtime.request('PUT', `/api/contact/${ids[1]}/read`, { token: admin, json: { read: false } })).status,
    ).toBe(200);
    expect(await unread()).toBe(before);
  });

  it('answers 404 for an unknown message and 400 for bad input, changing nothing', async () => {
    expectApiError(
      await runtime.request('PUT', `/api/contact/${'0'.repeat(24)}/read`, { token: admin, json: { read: true } }),
      404,
    );
    for (const json of [{}, { read: 'yes' }, { read: 1 }, { read: null }])
      expectApiError(await runtime.request('PUT', `/api/contact/${ids[0]}/read`, { token: admin, json }), 400);
    expectApiError(
      await runtime.request('PUT', '/api/contact/not-an-id/read', { token: admin, json: { read: true } }),
      400,
    );
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'cursor=%25',
      `cursor=${Buffer.from('"x"').toString('base64url')}`,
    ])
      expectApiError(await runtime.request('GET', `/api/contact?${query}`, { token: admin }), 400);
    const [row] = await runtime.db.query<{ is_read: boolean }>('SELECT is_read FROM contact_messages WHERE id = $1', [
      ids[0],
    ]);
    expect(row.is_read).toBe(false);
  });

  it('is for admins only: 401 signed out, 403 for a shopper', async () => {
    for (const [method, url, json] of [
      ['GET', '/api/contact', undefined],
      ['PUT', `/api/contact/${ids[0]}/read`, { read: true }],
    ] as const) {
      expectApiError(await runtime.request(method, url, { json }), 401);
      expectApiError(await runtime.request(method, url, { token: alice, json }), 403);
    }
  });
});

describe('the audit log: every admin action writes one event with its change', () => {
  /** Runs an admin action and returns the events it wrote (by their sequence, after the ones before it). */
  async function written(action: () => Promise<{ status: number; data: unknown }>, status = 200) {
    const [{ last }] = await runtime.db.query<{ last: number }>(
      'SELECT coalesce(max(seq), 0)::int AS last FROM events',
    );
    const res = await action();
    expect(res.status, JSON.stringify(res.data)).toBe(status);
    return runtime.db.query<{ type: string; subject: string; actor: string | null; data: any }>(
      'SELECT type, subject, actor, data FROM events WHERE seq > $1 ORDER BY seq',
      [last],
    );
  }
  const victim = async () => {
    const email = `victim-${unique()}@test.example`;
    await runtime.db.query('INSERT INTO users (email, name) VALUES ($1, $2)', [email, 'Victor Tim']);
    return email;
  };

  it('add, restock and delete a tool', async () => {
    let toolId = '';
    const added = await written(async () => {
      const res = await runtime.request('POST', '/api/tools', {
        token: admin,
        json: {
          name: 'Audit mallet',
          description: 'Rubber.',
          price: 9.5,
          minimumOrderQuantity: 2,
          availableQuantity: 30,
          img: '/images/tools/rubber-mallet.svg',
        },
      });
      toolId = res.data.insertedId;
      return res;
    }, 201);
    const tool = { name: 'Audit mallet', price: 9.5, minimumOrderQuantity: 2, availableQuantity: 30 };
    // `tool`: the tool as the API shows it, for webhooks (not shown in the log).
    const shown = (availableQuantity: number) =>
      expect.objectContaining({ _id: toolId, name: 'Audit mallet', price: 9.5, availableQuantity });
    expect(added).toEqual([
      {
        type: 'tool.added',
        subject: toolId,
        actor: ADMIN,
        data: { target: 'Audit mallet', before: null, after: tool, tool: shown(30) },
      },
    ]);

    const restocked = await written(() =>
      runtime.request('PUT', `/api/tool/update/${toolId}`, { token: admin, json: { availableQuantity: 75 } }),
    );
    expect(restocked).toEqual([
      {
        type: 'tool.restocked',
        subject: toolId,
        actor: ADMIN,
        data: {
          target: 'Audit mallet',
          before: { availableQuantity: 30 },
          after: { availableQuantity: 75 },
          tool: shown(75),
        },
      },
    ]);

    const deleted = await written(() => runtime.request('DELETE', `/api/tools/dlt/${toolId}`, { token: admin }));
    expect(deleted).toEqual([
      {
        type: 'tool.deleted',
        subject: toolId,
        actor: ADMIN,
        data: { target: 'Audit mallet', before: { ...tool, availableQuantity: 75 }, after: null, tool: shown(75) },
      },
    ]);
    // A tool that is not there: a 404, and nothing recorded.
    expect(await written(() => runtime.request('DELETE', `/api/tools/dlt/${toolId}`, { token: admin }), 404)).toEqual(
      [],
    );
    expect(
      await written(
        () => runtime.request('PUT', `/api/tool/update/${toolId}`, { token: admin, json: { availableQuantity: 5 } }),
        404,
      ),
    ).toEqual([]);
  });

  it('make admin and delete a user', async () => {
    const email = await victim();
    const made = await written(() => runtime.request('PUT', `/api/allusers/makeadmin/${email}`, { token: admin }));
    expect(made).toEqual([
      {
        type: 'user.made_admin',
        subject: email,
        actor: ADMIN,
        data: { target: email, before: { role: 'user' }, after: { role: 'admin' } },
      },
    ]);
    // Already an admin: nothing changed, nothing recorded.
    expect(await written(() => runtime.request('PUT', `/api/allusers/makeadmin/${email}`, { token: admin }))).toEqual(
      [],
    );

    const other = await victim();
    const deleted = await written(() => runtime.request('DELETE', `/api/allusers/dlt/${other}`, { token: admin }));
    expect(deleted).toEqual([
      {
        type: 'user.deleted',
        subject: other,
        actor: ADMIN,
        data: { target: other, before: { email: other, name: 'Victor Tim', role: 'user' }, after: null },
      },
    ]);
    expect(await written(() => runtime.request('DELETE', `/api/allusers/dlt/${other}`, { token: admin }), 404)).toEqual(
      [],
    );
  });

  it('hide and show a review', async () => {
    const [{ id, name }] = await runtime.db.query<{ id: string; name: string }>(
      'SELECT id, name FROM reviews WHERE NOT hidden ORDER BY ordinal DESC LIMIT 1',
    );
    const hidden = await written(() =>
      runtime.request('PUT', `/api/reviews/hide/${id}`, { token: admin, json: { hidden: true } }),
    );
    expect(hidden).toEqual([
      {
        type: 'review.hidden',
        subject: id,
        actor: ADMIN,
        data: { target: `Review by ${name}`, before: { hidden: false }, after: { hidden: true } },
      },
    ]);
    expect(
      await written(() => runtime.request('PUT', `/api/reviews/hide/${id}`, { token: admin, json: { hidden: true } })),
    ).toEqual([]);
    const shown = await written(() =>
      runtime.request('PUT', `/api/reviews/hide/${id}`, { token: admin, json: { hidden: false } }),
    );
    expect(shown).toEqual([
      {
        type: 'review.shown',
        subject: id,
        actor: ADMIN,
        data: { target: `Review by ${name}`, before: { hidden: true }, after: { hidden: false } },
      },
    ]);
  });

  it('writes the event in the change’s transaction: no event, no change', async () => {
    const toolId = await makeTool(runtime, admin, { availableQuantity: 40 });
    const tools = toolsService(failingEvents(runtime.db), runtime.deps.changes);
    await expect(tools.restock(toolId, 99, ADMIN)).rejects.toThrow(/event/);
    const [row] = await runtime.db.query<{ available_quantity: number }>(
      'SELECT available_quantity FROM tools WHERE id = $1',
      [toolId],
    );
    expect(row.available_quantity).toBe(40);
    const name = `Never added ${unique()}`;
    await expect(
      tools.create(
        {
          name,
          description: 'x',
          img: '/images/tools/anvil.svg',
          price: 1,
          minimumOrderQuantity: 1,
          availableQuantity: 1,
          priceBreaks: [],
          packSize: 1,
        },
        ADMIN,
      ),
    ).rejects.toThrow(/event/);
    expect(await runtime.db.query('SELECT id FROM tools WHERE name = $1', [name])).toEqual([]);
  });
});

describe('GET /audit', () => {
  beforeAll(async () => {
    // What the order flow will write: a buyer's order is not an admin action; an admin's shipping is.
    await runtime.db.transaction(async (tx) => {
      await emit(tx, { type: 'order.placed', subject: 'order-audit-1', actor: ALICE, data: {} });
      await emit(tx, {
        type: 'order.shipped',
        subject: 'order-audit-1',
        actor: ADMIN,
        data: { before: { shippingStatus: 'pending' }, after: { shippingStatus: 'shipped' } },
      });
    });
    for (const availableQuantity of [11, 12, 13]) {
      const toolId = await makeTool(runtime, admin);
      await runtime.request('PUT', `/api/tool/update/${toolId}`, { token: admin, json: { availableQuantity } });
    }
  });

  it('pages the admin actions newest first, each with its time, actor, action, target and change', async () => {
    const [{ total }] = await runtime.db.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM events WHERE actor IS NOT NULL AND type = ANY($1)',
      [AUDIT_ACTION_TYPES],
    );
    const first = await runtime.request('GET', '/api/audit?limit=2', { token: admin });
    expect(first.status).toBe(200);
    expect(Object.keys(first.data).sort()).toEqual(['items', 'nextCursor', 'total']);
    expect(first.data.total).toBe(total);
    expect(first.data.items[0]).toEqual({
      seq: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      type: 'tool.restocked',
      actor: ADMIN,
      subject: expect.stringMatching(/^[0-9a-f]{24}$/),
      target: expect.stringMatching(/^Test hammer/),
      before: { availableQuantity: 50 },
      after: { availableQuantity: 13 },
    });
    const seen: number[] = [];
    let cursor: string | null = null;
    const types = new Set<string>();
    do {
      const page: { status: number; data: { items: { seq: number; type: string }[]; nextCursor: string | null } } =
        await runtime.request('GET', `/api/audit?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { token: admin });
      expect(page.status).toBe(200);
      for (const entry of page.data.items) {
        seen.push(entry.seq);
        types.add(entry.type);
      }
      cursor = page.data.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(total);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(types.has('order.shipped')).toBe(true);
    expect(types.has('order.placed')).toBe(false);
    expect(types.has('contact.received')).toBe(false);
  });

  it('filters by one type, and refuses an unknown one', async () => {
    const shipped = await runtime.request('GET', '/api/audit?type=order.shipped', { token: admin });
    expect(shipped.status).toBe(200);
    expect(shipped.data.total).toBe(1);
    expect(shipped.data.items).toEqual([
      expect.objectContaining({
        type: 'order.shipped',
        subject: 'order-audit-1',
        target: 'order-audit-1',
        before: { shippingStatus: 'pending' },
        after: { shippingStatus: 'shipped' },
      }),
    ]);
    const restocked = await runtime.request('GET', '/api/audit?type=tool.restocked&limit=100', { token: admin });
    expect(restocked.data.items.every((e: { type: string }) => e.type === 'tool.restocked')).toBe(true);
    for (const query of ['type=order.placed', 'type=contact.received', 'type=', 'type=%27%3B', 'limit=0', 'cursor=%25'])
      expectApiError(await runtime.request('GET', `/api/audit?${query}`, { token: admin }), 400);
  });

  it('is for admins only: 401 signed out, 403 for a shopper', async () => {
    expectApiError(await runtime.request('GET', '/api/audit'), 401);
    expectApiError(await runtime.request('GET', '/api/audit', { token: alice }), 403);
  });

  it('cannot be written, edited or deleted through the API', async () => {
    const before = await eventCount();
    const [{ seq }] = await runtime.db.query<{ seq: number }>('SELECT max(seq)::int AS seq FROM events');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const url of ['/api/audit', `/api/audit/${seq}`, '/api/audit?type=tool.restocked']) {
        const res = await runtime.request(method, url, {
          token: admin,
          json: { type: 'tool.added', actor: 'mallory@example.com' },
        });
        expect([404, 405], `${method} ${url}`).toContain(res.status);
      }
    expect(await eventCount()).toBe(before);
  });
});
