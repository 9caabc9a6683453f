// The session as every page sees it: a snapshot persisted in localStorage, so the header can show the
// right links on a static page without loading Firebase. Only src/client/state/session.ts changes it.
import { atom, computed } from 'nanostores';
import { ACCESS_TOKEN_KEY, USER_KEY } from './session-keys';

export interface SessionUser {
  uid: string;
  displayName: string | null;
  email: string | null;
  emailVerified: boolean;
  photoURL: string | null;
  /** How the user signs in (Firebase's provider ids, e.g. 'password', 'google.com'), as of sign-in. */
  providers?: string[];
}

/** sessionStorage key of a toast left for the next page (src/client/infra/toast.ts), e.g. after deleting the account. */
export const FLASH_TOAST_KEY = 'flash-toast';

// A prerender on the server has no browser storage. Asked of `window`, as below: Node 26 has a localStorage
// of its own that warns whenever it is read without --localstorage-file.
function readStored(): SessionUser | null {
  if (typeof window === 'undefined') return null;
  try {
    return JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as SessionUser | null;
  } catch {
    return null;
  }
}

/** The signed-in user (snapshot), or null. */
export const $user = atom<SessionUser | null>(readStored());
/** True until Firebase has said who is signed in (only on pages that load it). */
export const $authLoading = atom<boolean>(true);
/** The admin flag from GET /api/admin/{email}; null while unknown. */
export const $isAdmin = atom<boolean | null>(null);
export const $signedIn = computed($user, (u) => u !== null);

export function accessToken(): string | null {
  return typeof window === 'undefined' ? null : localStorage.getItem(ACCESS_TOKEN_KEY);
}

/** Internal to the session module: keep the snapshot and the token in step with Firebase. */
export function storeSession(user: SessionUser | null, token?: string | null) {
  if (user) localStorage.setItem(USER_KEY, JSON.stringify(user));
  else localStorage.removeItem(USER_KEY);
  if (token) localStorage.setItem(ACCESS_TOKEN_KEY, token);
  if (!user || token === null) localStorage.removeItem(ACCESS_TOKEN_KEY);
  if (!user) $isAdmin.set(null);
  $user.set(user);
}

// Another tab signed in or out: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === USER_KEY) $user.set(readStored());
  });
}
