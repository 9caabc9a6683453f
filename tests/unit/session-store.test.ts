import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeLocalStorage } from './browser-storage';

// The store persists to localStorage; a Map stands in for it here.
let storage = new Map<string, string>();
beforeAll(() => {
  storage = fakeLocalStorage();
});
beforeEach(() => storage.clear());

const user = { uid: 'u1', displayName: 'Sam', email: 'sam@example.com', emailVerified: true, photoURL: null };

describe('session store transitions', () => {
  it('signing in keeps the user and the access token', async () => {
    const s = await import('../../src/client/state/session-store');
    s.storeSession(user, 'token-1');
    expect(s.$user.get()).toEqual(user);
    expect(s.$signedIn.get()).toBe(true);
    expect(s.accessToken()).toBe('token-1');
    expect(JSON.parse(storage.get('session-user')!)).toEqual(user);
  });
  it('a restored session keeps the token it had', async () => {
    const s = await import('../../src/client/state/session-store');
    s.storeSession(user, 'token-1');
    s.storeSession(user);
    expect(s.accessToken()).toBe('token-1');
  });
  it('signing out clears the user, the token and the admin flag', async () => {
    const s = await import('../../src/client/state/session-store');
    s.storeSession(user, 'token-1');
    s.$isAdmin.set(true);
    s.storeSession(null);
    expect(s.$user.get()).toBeNull();
    expect(s.$signedIn.get()).toBe(false);
    expect(s.accessToken()).toBeNull();
    expect(s.$isAdmin.get()).toBeNull();
    expect(storage.has('session-user')).toBe(false);
  });
  it('a refused token exchange drops the token but can keep the user snapshot', async () => {
    const s = await import('../../src/client/state/session-store');
    s.storeSession(user, 'token-1');
    s.storeSession(user, null);
    expect(s.accessToken()).toBeNull();
  });
});
