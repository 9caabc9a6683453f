// Emails (admin, issue 25): every email the store made, newest first: to whom, what, and whether it went
// (sent; kept, when no SMTP server is configured; failed, with the server's error). Resend sends one again.
import { useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import type { StoreEmail as Email } from '../../lib/entities';
import { Badge } from '../ui/Badge';
import { EmailText, type Column } from '../ui/DataTable';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { usePagedList } from '../ui/usePagedList';
import { When } from '../ui/When';

function State({ email }: { email: Email }) {
  if (email.state === 'sent') return <Badge tone="success">Sent</Badge>;
  if (email.state === 'failed') return <Badge tone="danger">Failed</Badge>;
  if (email.state === 'kept') return <Badge>Kept (no SMTP)</Badge>;
  return <Badge tone="warning">Waiting</Badge>;
}

export default function Emails(_props: { params: Record<string, string> }) {
  const emails = usePagedList(api.emails.list, {}, 'Could not load the emails. Please try again.');
  const [sending, setSending] = useState<string | null>(null);

  async function resend(email: Email) {
    setSending(email.id);
    try {
      const row = await api.emails.resend({ params: { id: email.id } });
      emails.updateRows((list) => list.map((e) => (e.id === row.id ? row : e)));
      toast.success(row.state === 'sent' ? `Sent again to ${email.recipient}` : `Kept again for ${email.recipient}`);
    } catch (error) {
      toast.error(errorMessage(error, 'The email could not be sent. Please try again.'));
      emails.reload();
    } finally {
      setSending(null);
    }
  }

  const columns: Column<Email>[] = [
    { header: 'To', rowHeader: true, cell: (e) => <EmailText email={e.recipient} /> },
    {
      header: 'Subject',
      cell: (e) => (
        <span className="block @max-2xl:max-w-[65%]">
          {e.subject}
          {e.attachments.length > 0 && (
            <span className="block text-xs text-steel-600">
              Attached: {e.attachments.map((a) => `${a.number}.pdf`).join(', ')}
            </span>
          )}
        </span>
      ),
    },
    {
      header: 'Made',
      className: 'whitespace-nowrap',
      cell: (e) => <When at={e.createdAt} withTime />,
    },
    {
      header: 'State',
      cell: (e) => (
        <span className="inline-flex flex-col items-end gap-1 sm:items-start">
          <span className="whitespace-nowrap">
            <State email={e} />
          </span>
          {e.lastError && <span className="max-w-60 text-xs break-words text-danger">{e.lastError}</span>}
        </span>
      ),
    },
    {
      header: 'Action',
      cell: (e) => (
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={sending === e.id}
          aria-busy={sending === e.id || undefined}
          onClick={() => resend(e)}
        >
          {sending === e.id ? 'Sending…' : 'Resend'}
          <span className="sr-only">
            {' '}
            “{e.subject}” to {e.recipient}
          </span>
        </button>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Emails" total={emails.total} noun="emails">
        Order confirmations, receipts, shipping news and the shop's notices, as they went out.
      </ScreenHeader>
      <PagedTable
        list={emails}
        pagerLabel="Email pages"
        caption="Emails"
        columns={columns}
        rowKey={(e) => e.id}
        empty="No emails yet: they are made as orders are placed, paid and shipped."
      />
    </>
  );
}
