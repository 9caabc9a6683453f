// Route guards (spec point 4): a spinner while the session loads; no user → /login remembering the
// page; the admin guard also waits for the server's admin check and throws a non-admin out.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode } from 'react';
// Imported, not loaded on demand: the session module answers the API client's refused tokens (it
// registers itself on load), and every screen behind these guards calls the API. It loads no Firebase.
import { expireSession, redirectToLogin, refreshAdmin, startSession } from '../../client/state/session';
import { $authLoading, $isAdmin, $user, accessToken } from '../../client/state/session-store';
import { PageSpinner } from './Spinner';
import { useHydrated } from './useHydrated';

export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useStore($user);
  const loading = useStore($authLoading);
  // A stored session (the user and our access token) shows the page at once, without loading
  // Firebase: the server checks the token on every call, and a refused one renews it through
  // Firebase or signs out (client/infra/api.ts). With none stored, Firebase says who is signed in.
  const [stored] = useState(() => user !== null && accessToken() !== null);
  const hydrated = useHydrated();
  useEffect(() => {
    if (!stored) void startSession();
  }, [stored]);
  const signedOut = !user && (stored || !loading);
  useEffect(() => {
    if (signedOut) redirectToLogin();
  }, [signedOut]);
  // The prebuilt HTML knows no session: the first render matches it, whatever is stored.
  if (!hydrated || (!user && !signedOut)) return <PageSpinner label="Checking your session…" />;
  if (signedOut) return <PageSpinner label="Redirecting to login…" />;
  return <>{children}</>;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const isAdmin = useStore($isAdmin);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    void (async () => {
      try {
        if (!(await refreshAdmin())) await expireSession();
      } catch {
        setFailed(true);
      }
    })();
  }, []);
  if (failed) return <p className="card p-6 text-danger">Could not check your permissions. Please reload the page.</p>;
  if (isAdmin !== true) return <PageSpinner label="Checking permissions…" />;
  return <>{children}</>;
}
