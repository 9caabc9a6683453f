// The signed-in check's kept rows (users/user-rules.ts): used only while the change bus hears every
// change, dropped by a users change (only the named emails' when it names them), and never kept from a
// read that raced one.
import { describe, expect, it } from 'vitest';
import { memoryBus, type ChangeBus } from '../../src/server/caching/changes';
import type { Queryable } from '../../src/server/db/client';
import { signedInUsers } from '../../src/server/users/user-rules';

const row = (role: 'user' | 'admin') => ({
  email: 'kim@test.example',
  name: 'Kim',
  role,
  email_verified: true,
  firebase_uid: 'uid-kim',
});

function fakeUsers() {
  const state = { role: 'user' as 'user' | 'admin', reads: 0, gate: undefined as Promise<void> | undefined };
  const db: Queryable = {
    query: (async () => {
      state.reads++;
      const role = state.role;
      await state.gate;
      return [row(role)];
    }) as Queryable['query'],
    exec: async () => {},
  };
  return { state, db };
}

/** A bus whose listener can be cut off, as postgresBus's is while it reconnects. */
function busWithListener(): ChangeBus & { up: boolean } {
  const bus = memoryBus();
  return Object.assign(Object.create(bus) as ChangeBus, {
    up: true,
    listening() {
      return this.up;
    },
  });
}

describe('signed-in users kept in memory', () => {
  it('reads a row once while the bus listens, and again after a users change', async () => {
    const { state, db } = fakeUsers();
    const bus = memoryBus();
    const lookup = signedInUsers(db, bus);
    expect((await lookup('kim@test.example'))?.role).toBe('user');
    await lookup('kim@test.example');
    expect(state.reads).toBe(1);
    state.role = 'admin';
    bus.announce('users');
    expect((await lookup('kim@test.example'))?.role).toBe('admin');
    expect(state.reads).toBe(2);
    // Other kinds of change leave the rows kept.
    bus.announce('stock', ['x']);
    bus.announce('tools');
    await lookup('kim@test.example');
    expect(state.reads).toBe(2);
  });

  it('reads every time while the listener is away (a change on another server could be missed)', async () => {
    const { state, db } = fakeUsers();
    const bus = busWithListener();
    const lookup = signedInUsers(db, bus);
    await lookup('kim@test.example');
    bus.up = false;
    state.role = 'admin';
    expect((await lookup('kim@test.example'))?.role).toBe('admin');
    expect((await lookup('kim@test.example'))?.role).toBe('admin');
    expect(state.reads).toBe(3);
  });

  it('does not keep a row read before a users change that arrived while it was read', async () => {
    const { state, db } = fakeUsers();
    const bus = memoryBus();
    const lookup = signedInUsers(db, bus);
    let open!: () => void;
    state.gate = new Promise((resolve) => (open = resolve));
    const racing = lookup('kim@test.example'); // reads role user, then waits
    await new Promise((r) => setTimeout(r, 10));
    state.role = 'admin';
    bus.announce('users');
    open();
    expect((await racing)?.role).toBe('user');
    state.gate = undefined;
    expect((await lookup('kim@test.example'))?.role).toBe('admin');
  });

  it('a users change naming emails drops only their rows; one naming none drops all', async () => {
    const roles = new Map<string, 'user' | 'admin'>([
      ['kim@test.example', 'user'],
      ['lee@test.example', 'user'],
    ]);
    const reads: string[] = [];
    const db: Queryable = {
      query: (async (_sql: string, params?: unknown[]) => {
        const emails = (params as [string[]])[0];
        reads.push(...emails);
        return emails.map((email) => ({ ...row(roles.get(email)!), email }));
      }) as Queryable['query'],
      exec: async () => {},
    };
    const bus = memoryBus();
    const lookup = signedInUsers(db, bus);
    await lookup('kim@test.example');
    await lookup('lee@test.example');
    roles.set('lee@test.example', 'admin');
    bus.announce('users', ['lee@test.example']);
    expect((await lookup('lee@test.example'))?.role).toBe('admin');
    await lookup('kim@test.example');
    expect(reads).toEqual(['kim@test.example', 'lee@test.example', 'lee@test.example']);
    bus.announce('users');
    await lookup('kim@test.example');
    await lookup('lee@test.example');
    expect(reads.slice(3)).toEqual(['kim@test.example', 'lee@test.example']);
  });
});
