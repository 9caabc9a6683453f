// The profile's account part (issue 24): the password, the user's data, and deleting the account. What
// is offered depends on how the user signs in (a password, Google, or both).
import { useEffect, useState, type ReactNode } from 'react';
import { signInMethods } from '../../client/state/session';
import type { UserProfile } from '../../lib/entities';
import { LoadError } from '../ui/States';
import { Spinner } from '../ui/Spinner';
import { ChangePassword } from './ChangePassword';
import { DeleteAccount } from './DeleteAccount';
import { DownloadData } from './DownloadData';

type Methods = Awaited<ReturnType<typeof signInMethods>>;

function Panel({
  id,
  title,
  danger = false,
  children,
}: {
  id: string;
  title: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`card px-5 py-6 sm:px-8 ${danger ? 'border-danger/60' : ''}`}>
      <h2 id={id} className={`text-lg font-bold ${danger ? 'text-danger' : ''}`}>
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function AccountSettings({ profile }: { profile: UserProfile }) {
  const [methods, setMethods] = useState<Methods | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    signInMethods().then(
      (m) => current && setMethods(m),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  if (failed && !methods) {
    return (
      <LoadError
        message="Your account settings could not be loaded. Please try again."
        onRetry={() => {
          setFailed(false);
          setAttempt((a) => a + 1);
        }}
      />
    );
  }
  if (!methods) return <Spinner label="Loading your account settings…" className="px-1" />;
  return (
    <>
      <Panel id="password-heading" title="Password">
        <ChangePassword email={profile.email} hasPassword={methods.password} />
      </Panel>
      <Panel id="data-heading" title="Your data">
        <DownloadData />
      </Panel>
      <Panel id="danger-heading" title="Danger zone" danger>
        <DeleteAccount email={profile.email} hasPassword={methods.password} isAdmin={profile.role === 'admin'} />
      </Panel>
    </>
  );
}
