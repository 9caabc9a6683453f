// The PostgreSQL change bus sends changes that come close together as one NOTIFY (issue 30: a NOTIFY per
// order placed or deleted was a statement, a commit and a wake-up of every server's listener each).
// The listener is a fake here; tests/api/topology.test.ts runs the bus on a real PostgreSQL.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresBus, type Change, type ChangeBus } from '../../src/server/caching/changes';

const quiet = { warn: () => {}, info: () => {} };
const ID = (n: number) => n.toString(16).padStart(24, '0');

/** A bus whose NOTIFYs are recorded, and a second bus that hears them as another server would. */
function twoServers(coalesceMs: number) {
  const sent: string[][] = [];
  const listeners = new Set<EventEmitter>();
  const connect = () => {
    const client = new EventEmitter() as EventEmitter & Record<string, unknown>;
    client.connect = async () => listeners.add(client);
    client.query = async () => {};
    client.end = async () => void listeners.delete(client);
    return client as never;
  };
  const notify = async (channel: string, payloads: string[]) => {
    sent.push(payloads);
    for (const l of listeners) for (const payload of payloads) l.emit('notification', { channel, payload });
  };
  const sender = postgresBus({ connect, notify, log: quiet, coalesceMs });
  const other = postgresBus({ connect, notify, log: quiet, coalesceMs });
  return { sender, other, sent };
}

let open: ChangeBus[] = [];
afterEach(async () => {
  await Promise.all(open.map((bus) => bus.close()));
  open = [];
});

describe('the PostgreSQL change bus', () => {
  it('sends a lone change at once, and merges a burst into one NOTIFY per kind', async () => {
    const { sender, other, sent } = twoServers(50);
    open.push(sender, other);
    await new Promise((r) => setImmediate(r));
    const heard: [Change, readonly string[] | undefined][] = [];
    other.subscribe((change, tools) => heard.push([change, tools]));

    sender.announce('stock', [ID(1)]);
    expect(sent).toEqual([[expect.stringMatching(new RegExp(`:stock:${ID(1)}$`))]]);

    for (let i = 2; i <= 40; i++) sender.announce('stock', [ID(i)]);
    sender.announce('reviews');
    expect(sent).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 80));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toHaveLength(2);
    const stock = heard.filter(([change]) => change === 'stock').flatMap(([, tools]) => tools ?? []);
    expect(new Set(stock)).toEqual(new Set(Array.from({ length: 40 }, (_, i) => ID(i + 1))));
    expect(heard.map(([change]) => change)).toContain('reviews');
  });

  it('a stock change that names no tool, or too many, is sent as any tool', async () => {
    const { sender, other, sent } = twoServers(50);
    open.push(sender, other);
    await new Promise((r) => setImmediate(r));
    const heard: (readonly string[] | undefined)[] = [];
    other.subscribe((change, tools) => change === 'stock' && heard.push(tools));
    sender.announce('tools');
    sender.announce('stock', [ID(1)]);
    sender.announce('stock');
    sender.announce('stock', [ID(2)]);
    await new Promise((r) => setTimeout(r, 80));
    expect(heard.at(-1)).toBeUndefined();

    for (let i = 0; i < 300; i++) sender.announce('stock', [ID(1000 + i)]);
    await new Promise((r) => setTimeout(r, 80));
    expect(heard.at(-1)).toBeUndefined();
    expect(sent.flat().every((payload) => payload.length < 8000)).toBe(true);
  });

  it('a users change names its emails, whatever characters they hold; a burst sends their union', async () => {
    const { sender, other, sent } = twoServers(50);
    open.push(sender, other);
    await new Promise((r) => setImmediate(r));
    const heard: (readonly string[] | undefined)[] = [];
    other.subscribe((change, emails) => change === 'users' && heard.push(emails));
    const odd = '"kim,lee:x%"@test.example';
    sender.announce('users', [odd]);
    sender.announce('users', ['ann@test.example']);
    sender.announce('users', [odd]);
    await new Promise((r) => setTimeout(r, 80));
    expect(heard.map((emails) => new Set(emails))).toEqual([new Set([odd]), new Set([odd, 'ann@test.example'])]);

    sender.announce('users', ['bo@test.example']);
    sender.announce('users');
    await new Promise((r) => setTimeout(r, 80));
    expect(heard.at(-1)).toBeUndefined();
    // More names than a NOTIFY holds: sent as any user.
    for (let i = 0; i < 100; i++) sender.announce('users', [`${'x'.repeat(60)}${i}@test.example`]);
    await new Promise((r) => setTimeout(r, 80));
    expect(heard.at(-1)).toBeUndefined();
    expect(sent.flat().every((payload) => payload.length < 8000)).toBe(true);
  });

  it('close sends what is still waiting', async () => {
    const { sender, other, sent } = twoServers(10_000);
    open.push(other);
    sender.announce('tools');
    sender.announce('stock', [ID(7)]);
    expect(sent).toHaveLength(1);
    await sender.close();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual([expect.stringMatching(new RegExp(`:stock:${ID(7)}$`))]);
  });
});
