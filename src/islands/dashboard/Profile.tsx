// Profile (spec point 2): greeting, email, details view; 'Edit profile' switches to a form whose
// Update or Cancel returns to the view. Email, role and sign-up date are never editable. Below it, the
// account's settings (issue 24): password, data download, account deletion.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { api } from '../../client/infra/api';
import { $user } from '../../client/state/session-store';
import { formatDate } from '../../lib/dates';
import type { UserProfile } from '../../lib/entities';
import { LoadError } from '../ui/States';
import { PageSpinner, Spinner } from '../ui/Spinner';
import { useResource } from '../ui/useResource';
import { AccountSettings } from './AccountSettings';

// Loaded when Edit profile opens: it brings the schemas (and zod), which the profile alone does not need.
const ProfileForm = lazy(() => import('./ProfileForm').then((m) => ({ default: m.ProfileForm })));

export default function Profile(_props: { params: Record<string, string> }) {
  const user = useStore($user);
  const email = user?.email?.toLowerCase() ?? null;
  const profile = useResource(
    api.users.profile,
    email ? { params: { email } } : null,
    'Could not load your profile. Please try again.',
  );
  const [editing, setEditing] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);

  if (profile.error && !profile.data) return <LoadError message={profile.error} onRetry={profile.reload} />;
  if (!profile.data || !user) return <PageSpinner label="Loading your profile…" />;
  const p = profile.data;
  const name = p.name || user.displayName || p.email;

  const close = () => {
    setEditing(false);
    // Back in view mode, put focus where the person left off.
    requestAnimationFrame(() => toggle.current?.focus());
  };

  return (
    <div className="space-y-6">
      <section aria-labelledby="profile-greeting" className="card overflow-hidden">
        <div className="flex flex-wrap items-center gap-4 bg-charcoal px-5 py-6 text-white sm:gap-5 sm:px-8 sm:py-7">
          <Avatar photoURL={user.photoURL} name={name} />
          <div className="min-w-[11rem] flex-1">
            <h1 id="profile-greeting" className="text-2xl font-black tracking-tight break-words sm:text-3xl">
              Hello, {name}
            </h1>
            <p className="mt-1 break-all text-steel-200">{p.email}</p>
            <p className="mt-1 text-sm text-steel-300">
              Member since <time dateTime={p.signUpDate}>{formatDate(new Date(p.signUpDate))}</time>
              {p.role === 'admin' && (
                <span className="ml-2 rounded bg-amber px-1.5 py-0.5 text-xs font-bold text-ink">Admin</span>
              )}
            </p>
          </div>
          <button
            ref={toggle}
            type="button"
            className="btn btn-primary max-sm:w-full"
            aria-expanded={editing}
            aria-controls="profile-panel"
            onClick={() => (editing ? close() : setEditing(true))}
          >
            <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true" className="fill-current">
              <path d="M13.6 2.6a2 2 0 0 1 2.8 0l1 1a2 2 0 0 1 0 2.8L7.7 16.1l-4.2 1 1-4.2z" />
            </svg>
            Edit profile
          </button>
        </div>
        <div id="profile-panel" className="px-5 py-6 sm:px-8">
          {editing ? (
            <Suspense fallback={<Spinner label="Loading the form…" />}>
              <ProfileForm
                profile={p}
                onSaved={(saved) => {
                  profile.update((old) => ({ ...old, ...saved }));
                  close();
                }}
                onCancel={close}
              />
            </Suspense>
          ) : (
            <ProfileDetails profile={p} />
          )}
        </div>
      </section>
      <AccountSettings profile={p} />
    </div>
  );
}

function Avatar({ photoURL, name }: { photoURL: string | null; name: string }) {
  const [broken, setBroken] = useState(false);
  if (photoURL && !broken) {
    return (
      <img
        src={photoURL}
        alt=""
        width="80"
        height="80"
        referrerPolicy="no-referrer"
        onError={() => setBroken(true)}
        className="h-16 w-16 shrink-0 rounded-full object-cover ring-4 ring-amber sm:h-20 sm:w-20"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-letter"
      className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-amber text-3xl font-black text-ink ring-4 ring-white/20 sm:h-20 sm:w-20 sm:text-4xl"
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

function ProfileDetails({ profile }: { profile: UserProfile }) {
  const missing = <span className="text-steel-500 italic">Not added yet</span>;
  const social = /^https?:\/\//i.test(profile.social) ? profile.social : '';
  const rows: [string, ReactNode][] = [
    ['Education', profile.education || missing],
    ['Phone number', profile.phoneNumber || missing],
    [
      'Social link',
      social ? (
        <a
          href={social}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="break-all font-medium text-amber-dark underline"
        >
          {social}
        </a>
      ) : (
        missing
      ),
    ],
    ['Address', profile.address ? <span className="whitespace-pre-line">{profile.address}</span> : missing],
  ];
  return (
    <>
      <h2 className="text-lg font-bold">Your details</h2>
      <dl className="mt-4 grid gap-x-8 gap-y-5 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label} className="border-l-4 border-amber pl-4">
            <dt className="text-xs font-semibold tracking-wide text-steel-600 uppercase">{label}</dt>
            <dd className="mt-1 break-words text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
