// Google sign-in has two branches: the popup with a real Firebase project, and a Google credential
// against the emulator (browser-tested in e2e). This covers the popup branch, Firebase mocked.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLocalStorage } from './browser-storage';

const storage = fakeLocalStorage();

const user = {
  uid: 'g1',
  displayName: 'Gia',
  email: 'Gia@Example.com',
  emailVerified: true,
  photoURL: null,
  providerData: [{ providerId: 'google.com' }],
  getIdToken: vi.fn(async () => 'id-token'),
};
const signInWithPopup = vi.fn(async () => ({ user }));
const signInWithCredential = vi.fn();
const put = vi.fn(async () => ({ token: 'our-token' }));

vi.mock('../../src/client/infra/firebase', () => ({ auth: { name: 'auth' }, usingEmulator: false }));
vi.mock('firebase/auth', () => ({
  GoogleAuthProvider: class {
    static credential = vi.fn();
  },
  browserPopupRedirectResolver: { resolver: 'popup' },
  signInWithPopup,
  signInWithCredential,
}));
vi.mock('../../src/client/infra/api', () => ({ api: { users: { signIn: put } }, onUnauthorized: () => {} }));

beforeEach(() => storage.clear());

describe('Google sign-in with a real Firebase project', () => {
  it('uses the popup, then exchanges the ID token for our access token', async () => {
    const { signInWithGoogle } = await import('../../src/client/state/session');
    const { $user, accessToken } = await import('../../src/client/state/session-store');
    await signInWithGoogle();
    expect(signInWithPopup).toHaveBeenCalledOnce();
    expect(signInWithCredential).not.toHaveBeenCalled();
    expect(put).toHaveBeenCalledWith(
      { params: { email: 'gia@example.com' }, body: { email: 'gia@example.com' } },
      { headers: { authorization: 'Bearer id-token' } },
    );
    expect(accessToken()).toBe('our-token');
    expect($user.get()?.uid).toBe('g1');
  });

  it("keeps how the user signs in with the session: the profile reads it without Firebase's auth state", async () => {
    const { signInMethods, signInWithGoogle } = await import('../../src/client/state/session');
    await signInWithGoogle();
    // The mocked Firebase auth has no authStateReady: asking it would throw.
    await expect(signInMethods()).resolves.toEqual({ password: false, google: true });
  });
});
