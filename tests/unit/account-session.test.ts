// The profile's account actions in src/client/state/session.ts, Firebase mocked: each re-authenticates first
// (the password, or Google's popup with a real project: the emulator branch is browser-tested in e2e).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountAuthErrorMessage } from '../../src/lib/auth-errors';
import { messages } from '../../src/lib/messages';
import { fieldErrors, passwordChangeSchema } from '../../src/lib/schemas';
import { fakeLocalStorage } from './browser-storage';

const storage = fakeLocalStorage();

const calls: string[] = [];
const user = {
  uid: 'u1',
  email: 'pat@example.com',
  providerData: [{ providerId: 'google.com' }],
  getIdToken: vi.fn(async () => 'fresh-id-token'),
};
const auth = { currentUser: user as typeof user | null, authStateReady: async () => {} };
const reauthenticateWithCredential = vi.fn(async () => void calls.push('reauthenticate'));
const reauthenticateWithPopup = vi.fn(async () => void calls.push('popup'));
const updatePassword = vi.fn(async () => void calls.push('updatePassword'));
const signOut = vi.fn(async () => void calls.push('signOut'));
const del = vi.fn(async () => {
  calls.push('DELETE /account');
  return { acknowledged: true };
});

vi.mock('../../src/client/infra/firebase', () => ({ auth, usingEmulator: false }));
vi.mock('firebase/auth', () => ({
  EmailAuthProvider: { credential: (email: string, password: string) => ({ email, password }) },
  GoogleAuthProvider: class {
    static credential = vi.fn();
  },
  browserPopupRedirectResolver: { resolver: 'popup' },
  reauthenticateWithCredential,
  reauthenticateWithPopup,
  updatePassword,
  signOut,
}));
vi.mock('../../src/client/infra/api', () => ({ api: { account: { remove: del } }, onUnauthorized: () => {} }));

beforeEach(() => {
  calls.length = 0;
  storage.clear();
  auth.currentUser = user;
  vi.clearAllMocks();
});

describe('account actions', () => {
  it('change password: re-authenticates with the current password, then sets the new one', async () => {
    const { changePassword } = await import('../../src/client/state/session');
    await changePassword('old-pass-1', 'new-pass-2');
    expect(reauthenticateWithCredential).toHaveBeenCalledWith(user, { email: user.email, password: 'old-pass-1' });
    expect(updatePassword).toHaveBeenCalledWith(user, 'new-pass-2');
    expect(calls).toEqual(['reauthenticate', 'updatePassword']);
  });

  it('delete: a Google account re-authenticates through the popup, sends the fresh ID token, then signs out', async () => {
    const { deleteAccount, signInMethods } = await import('../../src/client/state/session');
    const { $user } = await import('../../src/client/state/session-store');
    storage.set('accessToken', 'our-token');
    expect(await signInMethods()).toEqual({ password: false, google: true });
    await deleteAccount({ google: true });
    expect(reauthenticateWithPopup).toHaveBeenCalledWith(user, expect.anything(), { resolver: 'popup' });
    expect(del).toHaveBeenCalledWith({ body: { idToken: 'fresh-id-token' } });
    expect(calls).toEqual(['popup', 'DELETE /account', 'signOut']);
    expect(storage.has('accessToken')).toBe(false);
    expect($user.get()).toBeNull();
  });

  it('nothing is sent when the re-authentication fails', async () => {
    const { deleteAccount } = await import('../../src/client/state/session');
    reauthenticateWithCredential.mockRejectedValueOnce(
      Object.assign(new Error('bad'), { code: 'auth/invalid-credential' }),
    );
    await expect(deleteAccount({ password: 'wrong' })).rejects.toMatchObject({ code: 'auth/invalid-credential' });
    expect(del).not.toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
  });

  it('with nobody signed in, says so', async () => {
    const { changePassword } = await import('../../src/client/state/session');
    auth.currentUser = null;
    const error = await changePassword('a', 'b').catch((e: unknown) => e);
    expect(accountAuthErrorMessage(error)).toBe(messages.authNoUser);
  });
});

describe('the messages of a failed re-authentication', () => {
  it.each([
    ['auth/invalid-credential', messages.currentPasswordWrong],
    ['auth/wrong-password', messages.currentPasswordWrong],
    ['auth/requires-recent-login', messages.recentLoginRequired],
    ['auth/weak-password', messages.passwordTooShort],
    ['auth/user-mismatch', messages.googleAccountMismatch],
    ['auth/too-many-requests', messages.authTooManyRequests],
    ['auth/network-request-failed', messages.authNetwork],
    ['auth/popup-closed-by-user', messages.authPopupClosed],
    ['auth/internal-error', messages.authOther],
  ])('%s → %s', (code, message) => {
    expect(accountAuthErrorMessage({ code })).toBe(message);
  });
});

describe('the Change password form (spec point 5 rules)', () => {
  const check = (v: Record<string, string>) => {
    const parsed = passwordChangeSchema.safeParse(v);
    return parsed.success ? {} : fieldErrors(parsed.error);
  };
  it('needs the current password, 6 characters for the new one, the same twice, and a change', () => {
    expect(check({ currentPassword: '', newPassword: 'abcdef', confirmPassword: 'abcdef' })).toEqual({
      currentPassword: messages.currentPasswordRequired,
    });
    expect(check({ currentPassword: 'old-pass', newPassword: 'abc', confirmPassword: 'abc' })).toEqual({
      newPassword: messages.passwordTooShort,
    });
    expect(check({ currentPassword: 'old-pass', newPassword: 'abcdef', confirmPassword: 'abcdeg' })).toEqual({
      confirmPassword: messages.passwordsDontMatch,
    });
    expect(check({ currentPassword: 'same-pass', newPassword: 'same-pass', confirmPassword: 'same-pass' })).toEqual({
      newPassword: messages.passwordUnchanged,
    });
    expect(check({ currentPassword: 'old-pass', newPassword: 'new-pass', confirmPassword: 'new-pass' })).toEqual({});
  });
});

describe('Sign Out from a guarded page (the dashboard)', () => {
  it('goes home: the guard that sees the session end meanwhile does not send the page to /login', async () => {
    vi.resetModules(); // a fresh session module: deleting an account above left it on its way home
    const assign = vi.fn();
    vi.stubGlobal('location', { assign, pathname: '/dashboard', search: '', origin: 'http://localhost' });
    try {
      const { redirectToLogin, signOutAndGoHome } = await import('../../src/client/state/session');
      const { $user, storeSession } = await import('../../src/client/state/session-store');
      storeSession(
        { uid: 'u1', email: user.email, displayName: 'Pat', emailVerified: true, photoURL: null },
        'our-token',
      );
      // What RequireAuth does when the user goes (islands/ui/Guards.tsx).
      const unsubscribe = $user.listen((now) => {
        if (!now) redirectToLogin();
      });
      await signOutAndGoHome();
      unsubscribe();
      expect(signOut).toHaveBeenCalled();
      expect($user.get()).toBeNull();
      // Before, the guard's location.assign('/login?from=%2Fdashboard') raced the header's ('/'): the later won.
      expect(assign.mock.calls).toEqual([['/']]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
