// Route guards (spec point 4): a spinner while the session loads; no user → /login remembering the
// page; the admin guard also waits for the server's admin check and throws a non-admin out.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode } from 'react';
import { $authLoading, $isAdmin, $user } from '../../client/session-store';
import { PageSpinner } from './Spinner';

export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useStore($user);
  const loading = useStore($authLoading);
  useEffect(() => {
    void import('../../client/session').then((s) => s.startSession());
  }, []);
  useEffect(() => {
    if (!loading && !user) void import('../../client/session').then((s) => s.redirectToLogin());
  }, [loading, user]);
  if (loading) return <PageSpinner label="Checking your session…" />;
  if (!user) return <PageSpinner label="Redirecting to login…" />;
  return <>{children}</>;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const isAdmin = useStore($isAdmin);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    void import('../../client/session').then(async (s) => {
      try {
        if (!(await s.refreshAdmin())) await s.expireSession();
      } catch {
        setFailed(true);
      }
    });
  }, []);
  if (failed) return <p className="card p-6 text-danger">Could not check your permissions. Please reload the page.</p>;
  if (isAdmin !== true) return <PageSpinner label="Checking permissions…" />;
  return <>{children}</>;
}
