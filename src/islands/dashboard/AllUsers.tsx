// All users (admin, spec point 2): total count; each email with Delete and, for non-admins, Make admin.
// Both ask first in the one confirmation dialog; a 403 on make-admin toasts the spec's message.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { api, errorMessage, httpStatus } from '../../client/infra/api';
import { $user } from '../../client/state/session-store';
import { toast } from '../../client/infra/toast';
import { messages } from '../../lib/messages';
import { Badge } from '../ui/Badge';
import { useConfirm } from '../ui/ConfirmDialog';
import { EmailText, type Column } from '../ui/DataTable';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { SearchForm } from '../ui/SearchForm';
import { usePagedList } from '../ui/usePagedList';
import { useUrlQuery } from '../ui/useUrlQuery';
import type { UserProfile } from '../../lib/entities';

const SEARCH_FIELDS = ['q'] as const;

type Busy = Record<string, 'admin' | 'delete' | undefined>;

export default function AllUsers(_props: { params: Record<string, string> }) {
  const me = useStore($user)?.email?.toLowerCase();
  // A page of users at a time (a store may have very many), with the total from the server.
  const [view, setView] = useUrlQuery(SEARCH_FIELDS);
  const users = usePagedList(
    api.users.list,
    { query: { q: view.q || undefined } },
    'Could not load the users. Please try again.',
  );
  const { confirm, dialog } = useConfirm();
  const [busy, setBusy] = useState<Busy>({});
  const mark = (email: string, action?: 'admin' | 'delete') => setBusy((b) => ({ ...b, [email]: action }));

  async function makeAdmin(user: UserProfile) {
    const ok = await confirm({
      title: messages.confirmTitle,
      text: (
        <>
          Make <strong className="break-all">{user.name ? `${user.name} (${user.email})` : user.email}</strong> an
          admin? They will be able to manage users, products and all orders.
        </>
      ),
      confirmLabel: 'Make admin',
      danger: false,
    });
    if (!ok) return;
    mark(user.email, 'admin');
    try {
      await api.users.makeAdmin({ params: { email: user.email } });
      users.updateRows((list) => list.map((u) => (u.email === user.email ? { ...u, role: 'admin' } : u)));
      toast.success(`${user.name || user.email} is now an admin`);
    } catch (error) {
      toast.error(httpStatus(error) === 403 ? messages.makeAdminFailed : errorMessage(error, messages.makeAdminFailed));
    } finally {
      mark(user.email);
    }
  }

  async function remove(user: UserProfile) {
    const self = user.email === me;
    const ok = await confirm({
      title: messages.confirmTitle,
      text: (
        <>
          <p>{messages.confirmIrreversible}</p>
          <p className="mt-2">
            {self ? 'This deletes your own account and signs you out: ' : 'Delete the account of '}
            <strong className="break-all">{user.email}</strong>.
          </p>
        </>
      ),
      confirmLabel: 'Delete',
    });
    if (!ok) return;
    mark(user.email, 'delete');
    try {
      await api.users.remove({ params: { email: user.email } });
      users.updateRows((list) => list.filter((u) => u.email !== user.email));
      toast.success(`${user.email} was deleted`);
      if (self) await import('../../client/state/session').then((s) => s.expireSession());
    } catch (error) {
      toast.error(errorMessage(error, 'The user could not be deleted. Please try again.'));
    } finally {
      mark(user.email);
    }
  }

  const columns: Column<UserProfile>[] = [
    {
      header: 'Email',
      rowHeader: true,
      cell: (u) => (
        <>
          <EmailText email={u.email} />
          {u.email === me && <span className="ml-2 text-xs font-normal text-steel-600">(you)</span>}
        </>
      ),
    },
    { header: 'Name', cell: (u) => u.name || <span className="text-steel-500">—</span> },
    { header: 'Role', cell: (u) => (u.role === 'admin' ? <Badge tone="dark">Admin</Badge> : <Badge>User</Badge>) },
    {
      header: 'Actions',
      className: 'sm:text-right',
      cell: (u) => (
        <span className="inline-flex justify-end gap-2 whitespace-nowrap">
          {u.role !== 'admin' && (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={busy[u.email] !== undefined}
              aria-busy={busy[u.email] === 'admin' || undefined}
              onClick={() => makeAdmin(u)}
            >
              {busy[u.email] === 'admin' ? 'Saving…' : 'Make admin'}
              <span className="sr-only"> {u.email}</span>
            </button>
          )}
          <button
            type="button"
            className="btn btn-danger btn-sm"
            disabled={busy[u.email] !== undefined}
            aria-busy={busy[u.email] === 'delete' || undefined}
            onClick={() => remove(u)}
          >
            {busy[u.email] === 'delete' ? 'Deleting…' : 'Delete'}
            <span className="sr-only"> {u.email}</span>
          </button>
        </span>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="All Users" total={users.total} noun={view.q ? 'matching users' : 'users'}>
        Promote trusted staff to admin, or remove accounts.
      </ScreenHeader>
      <SearchForm
        label="Search by email"
        placeholder="e.g. smith@ or example.com"
        query={view.q}
        onSearch={(q) => setView({ q })}
        landmark="Find users"
        className="mb-4 flex-wrap"
      >
        {view.q && (
          <button type="button" className="btn btn-outline" onClick={() => setView({ q: '' })}>
            Show all
          </button>
        )}
      </SearchForm>
      <PagedTable
        list={users}
        loadingLabel="Loading users…"
        pagerLabel="User pages"
        caption="All users"
        columns={columns}
        rowKey={(u) => u.email}
        empty={view.q ? `No user's email contains “${view.q}”.` : 'No users have signed up yet.'}
      />
      {dialog}
    </>
  );
}
