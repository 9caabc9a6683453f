// Messages (admin; issue 25, not in the spec): what visitors sent through the home page's 'Get In
// Touch' form, newest first, a page at a time, each marked read or unread by whoever handled it.
import { useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { ContactMessage } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { Badge } from '../ui/Badge';
import { EmailText, type Column } from '../ui/DataTable';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { usePagedList } from '../ui/usePagedList';
import { When } from '../ui/When';

export default function Messages(_props: { params: Record<string, string> }) {
  const inbox = usePagedList(api.contact.inbox, {}, 'Could not load the messages. Please try again.');
  const [saving, setSaving] = useState<string | null>(null);

  async function setRead(message: ContactMessage, read: boolean) {
    setSaving(message._id);
    try {
      await api.contact.markRead({ params: { id: message._id }, body: { read } });
      inbox.updatePage((page) => ({
        ...page,
        items: page.items.map((m) => (m._id === message._id ? { ...m, read } : m)),
        unread: Math.max(0, page.unread + (read ? -1 : 1)),
      }));
    } catch (error) {
      toast.error(errorMessage(error, messages.contactMarkFailed));
    } finally {
      setSaving(null);
    }
  }

  const columns: Column<ContactMessage>[] = [
    { header: 'From', rowHeader: true, cell: (m) => m.name },
    {
      header: 'Email',
      cell: (m) => (
        <a
          className="text-ink underline decoration-steel-300 [overflow-wrap:anywhere] hover:text-amber-dark hover:decoration-amber-dark"
          href={`mailto:${m.email}`}
        >
          <EmailText email={m.email} />
        </a>
      ),
    },
    {
      header: 'Message',
      cell: (m) => (
        <span className="block max-w-prose whitespace-pre-wrap text-left [overflow-wrap:anywhere]">{m.message}</span>
      ),
    },
    {
      header: 'Received',
      cell: (m) => <When at={m.receivedAt} withTime className="whitespace-nowrap" />,
    },
    { header: 'Status', cell: (m) => (m.read ? <Badge>Read</Badge> : <Badge tone="warning">Unread</Badge>) },
    {
      header: 'Action',
      className: 'sm:text-right',
      cell: (m) => (
        <button
          type="button"
          className={`btn btn-sm whitespace-nowrap ${m.read ? 'btn-outline' : 'btn-primary'}`}
          disabled={saving !== null}
          aria-busy={saving === m._id || undefined}
          onClick={() => setRead(m, !m.read)}
        >
          {saving === m._id ? 'Saving…' : m.read ? 'Mark unread' : 'Mark read'}
          <span className="sr-only"> the message from {m.name}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Messages" total={inbox.total} noun="messages">
        What visitors sent through &lsquo;Get In Touch&rsquo;, newest first.
        {inbox.page && (
          <>
            {' '}
            <strong data-testid="unread">{inbox.page.unread} unread</strong>.
          </>
        )}
      </ScreenHeader>
      <PagedTable
        list={inbox}
        pagerLabel="Message pages"
        caption="Messages"
        columns={columns}
        empty={messages.noMessages}
      />
    </>
  );
}
