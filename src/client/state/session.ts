// The session's actions: the only code that signs in, signs out or changes the session stores. It
// also answers the API client's refused tokens (renew once, else sign out), registered on load below.
import type { User } from 'firebase/auth';
import { api, onUnauthorized } from '../infra/api';
import { $authLoading, $isAdmin, $user, accessToken, storeSession, type SessionUser } from './session-store';
import { safeRedirectPath } from '../../lib/redirect';
import { loginPath } from './session-keys';

const firebase = () => Promise.all([import('../infra/firebase'), import('firebase/auth')]);

const snapshot = (u: User): SessionUser => ({
  uid: u.uid,
  displayName: u.displayName,
  email: u.email,
  emailVerified: u.emailVerified,
  photoURL: u.photoURL,
  providers: u.providerData.map((p) => p.providerId),
});

/** Exchanges the Firebase ID token for our access token (spec: PUT /user/{email}, stored as accessToken). */
async function exchange(user: User, forceRefresh = false): Promise<string> {
  const idToken = await user.getIdToken(forceRefresh);
  const email = user.email!.toLowerCase();
  const { token } = await api.users.signIn(
    { params: { email }, body: { email } },
    { headers: { authorization: `Bearer ${idToken}` } },
  );
  return token;
}

async function establish(user: User, forceRefresh = false) {
  const token = await exchange(user, forceRefresh);
  storeSession(snapshot(user), token);
}

let started: Promise<void> | undefined;
/** Loads Firebase and follows its auth state (restored sessions, sign-outs of disabled or expired users). */
export function startSession(): Promise<void> {
  started ??= firebase().then(([{ auth }, { onAuthStateChanged }]) => {
    return new Promise<void>((resolve) => {
      onAuthStateChanged(auth, async (user) => {
        if (!user) {
          storeSession(null);
        } else if (!accessToken() || $user.get()?.uid !== user.uid) {
          await establish(user).catch(() => storeSession(null));
        } else {
          storeSession(snapshot(user));
        }
        $authLoading.set(false);
        resolve();
      });
    });
  });
  return started;
}

export async function signIn(email: string, password: string) {
  const [{ auth }, { signInWithEmailAndPassword }] = await firebase();
  const { user } = await signInWithEmailAndPassword(auth, email, password);
  await establish(user);
}

export async function signUp(name: string, email: string, password: string) {
  const [{ auth }, { createUserWithEmailAndPassword, sendEmailVerification, updateProfile }] = await firebase();
  const { user } = await createUserWithEmailAndPassword(auth, email, password);
  await sendEmailVerification(user);
  await updateProfile(user, { displayName: name });
  await establish(user, true); // refreshed so the token carries the display name
}

/** The emulator's stand-in for a Google ID token: the same Google account (sub) for an email every time. */
const emulatorGoogleIdToken = (email: string) =>
  JSON.stringify({ sub: `google-${email}`, email, email_verified: true, name: email.split('@')[0] });

/** Google sign-in: the popup with a real project; against the emulator, a Google credential for the typed email. */
export async function signInWithGoogle(emulatorEmail?: string) {
  const [
    { auth, usingEmulator },
    { GoogleAuthProvider, browserPopupRedirectResolver, signInWithCredential, signInWithPopup },
  ] = await firebase();
  if (usingEmulator) {
    if (!emulatorEmail) throw Object.assign(new Error('email needed'), { code: 'auth/invalid-email' });
    const { user } = await signInWithCredential(
      auth,
      GoogleAuthProvider.credential(emulatorGoogleIdToken(emulatorEmail)),
    );
    await establish(user);
    return;
  }
  const { user } = await signInWithPopup(auth, new GoogleAuthProvider(), browserPopupRedirectResolver);
  await establish(user);
}

/** How the signed-in user proves who they are (Firebase's providers): a password, Google, or both. */
export async function signInMethods(): Promise<{ password: boolean; google: boolean }> {
  // Kept with the session at sign-in, so the profile does not load Firebase (~39 kB) to show them; a
  // session stored before they were kept asks Firebase.
  let providers = $user.get()?.providers;
  if (!providers) {
    const [{ auth }] = await firebase();
    await auth.authStateReady();
    providers = auth.currentUser?.providerData.map((p) => p.providerId) ?? [];
  }
  return { password: providers.includes('password'), google: providers.includes('google.com') };
}

/** A re-authentication: the current password, or Google (a popup; against the emulator, a Google credential). */
export type Proof = { password: string } | { google: true };

/** Signs the current user in again (Firebase's re-authentication): sensitive changes need a fresh sign-in. */
async function reauthenticate(proof: Proof): Promise<User> {
  const [{ auth, usingEmulator }, fb] = await firebase();
  await auth.authStateReady();
  const user = auth.currentUser;
  if (!user?.email) throw Object.assign(new Error('No user is logged in'), { code: 'auth/no-current-user' });
  if ('password' in proof) {
    await fb.reauthenticateWithCredential(user, fb.EmailAuthProvider.credential(user.email, proof.password));
  } else if (usingEmulator) {
    await fb.reauthenticateWithCredential(user, fb.GoogleAuthProvider.credential(emulatorGoogleIdToken(user.email)));
  } else {
    await fb.reauthenticateWithPopup(user, new fb.GoogleAuthProvider(), fb.browserPopupRedirectResolver);
  }
  return user;
}

/** Change password: the current one proves it is the user, then Firebase stores the new one. The session stays. */
export async function changePassword(currentPassword: string, newPassword: string) {
  const [, { updatePassword }] = await firebase();
  const user = await reauthenticate({ password: currentPassword });
  await updatePassword(user, newPassword);
}

/**
 * Set by a sign-out the user asked for (the header's Sign Out, deleting the account): the page is on its
 * way home. A guard that sees the session end meanwhile must not send it to /login: two navigations race
 * and the later one wins, so the user landed on /login or home by chance.
 */
let leavingForHome = false;

/**
 * Deletes the user's account: a fresh sign-in, whose ID token (auth_time: now) the server checks before
 * it deletes anything (DELETE /api/account), then this browser signs out.
 */
export async function deleteAccount(proof: Proof) {
  const user = await reauthenticate(proof);
  const idToken = await user.getIdToken();
  await api.account.remove({ body: { idToken } });
  // The sign-in account is gone already; only this browser's copy of it is left to drop. The page then
  // goes home (DeleteAccount): the guards must not send it to /login meanwhile.
  leavingForHome = true;
  await signOut().catch(() => storeSession(null));
}

export async function sendPasswordReset(email: string) {
  const [{ auth }, { sendPasswordResetEmail }] = await firebase();
  await sendPasswordResetEmail(auth, email);
}

/** The header's Sign Out: signs out, then home. */
export async function signOutAndGoHome() {
  leavingForHome = true;
  await signOut().catch(() => storeSession(null));
  location.assign('/');
}

export async function signOut() {
  const [{ auth }, { signOut: firebaseSignOut }] = await firebase();
  await firebaseSignOut(auth);
  adminCheck = null;
  storeSession(null);
}

/** After a profile update: the Firebase display name follows the profile name. */
export async function updateDisplayName(displayName: string) {
  const [{ auth }, { updateProfile }] = await firebase();
  await auth.authStateReady(); // Firebase may have just loaded: its user is restored from storage first
  const user = auth.currentUser;
  if (!user || user.displayName === displayName) return;
  await updateProfile(user, { displayName });
  storeSession(snapshot(user));
}

/** The admin check of this page visit: the user it asked about and the server's answer. */
let adminCheck: { email: string; admin: Promise<boolean> } | null = null;

/**
 * GET /admin/{email}: the server's word on whether the user is an admin. Asked once per page visit
 * and user (the menu and every admin screen share the answer); asked again after a failure, a
 * sign-out or when another user signs in.
 */
export function refreshAdmin(): Promise<boolean> {
  const email = $user.get()?.email?.toLowerCase();
  if (!email) {
    $isAdmin.set(false);
    return Promise.resolve(false);
  }
  if (adminCheck?.email !== email) {
    const admin = api.users.isAdmin({ params: { email } }).then((answer) => answer.admin);
    const check = { email, admin };
    admin.catch(() => {
      if (adminCheck === check) adminCheck = null;
    });
    adminCheck = check;
  }
  return adminCheck.admin.then((admin) => {
    $isAdmin.set(admin);
    return admin;
  });
}

/** After a 401: one silent exchange of a fresh Firebase ID token for a new access token. */
export async function renewAccessToken(): Promise<boolean> {
  try {
    const [{ auth }] = await firebase();
    await auth.authStateReady();
    if (!auth.currentUser) return false;
    await establish(auth.currentUser, true);
    return true;
  } catch {
    return false;
  }
}

/** The session is gone (deleted user, revoked token): sign out and go to /login, remembering the page. */
export async function expireSession() {
  await signOut().catch(() => storeSession(null));
  redirectToLogin();
}

export function redirectToLogin() {
  if (leavingForHome) return;
  location.assign(loginPath(location.pathname + location.search));
}

onUnauthorized({ renew: renewAccessToken, expire: expireSession });

/** Where to go after login or signup: the page the user came from (same site only), else /. */
export function returnPath(): string {
  return safeRedirectPath(new URLSearchParams(location.search).get('from'), location.origin);
}
