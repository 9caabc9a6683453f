// My Quotes (issue 26): the buyer's quote requests, newest first, with the shop's prices once answered.
// An answered quote is accepted with an address and phone (an order at those prices, then the payment
// page) or declined.
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import { navigate } from '../../client/state/router';
import { $user, type SessionUser } from '../../client/state/session-store';
import { toast } from '../../client/infra/toast';
import type { Quote } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { AppLink } from '../ui/AppLink';
import { useConfirm } from '../ui/ConfirmDialog';
import type { Column } from '../ui/DataTable';
import { deliveryChecks, deliveryErrors, deliveryJson, DeliveryFields, EMPTY_DELIVERY } from '../ui/DeliveryFields';
import { FormDialog } from '../ui/Modal';
import { QuoteLines, QuoteStateBadge, QuoteTotal } from '../ui/QuoteLines';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { SubmitButton } from '../ui/SubmitButton';
import { useForm } from '../ui/useForm';
import { usePagedList } from '../ui/usePagedList';
import { When } from '../ui/When';

const ref = (id: string) => id.slice(-8).toUpperCase();

export default function MyQuotes() {
  const user = useStore($user);
  const quotes = usePagedList(api.quotes.list, user ? {} : null, 'Could not load your quotes.');
  const [accepting, setAccepting] = useState<Quote | null>(null);
  const [declining, setDeclining] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();

  async function decline(quote: Quote) {
    const ok = await confirm({
      text: `Decline quote ${ref(quote._id)}? The shop's offer will be closed.`,
      confirmLabel: 'Yes, decline it',
    });
    if (!ok) return;
    setDeclining(quote._id);
    try {
      const declined = await api.quotes.decline({ params: { id: quote._id } });
      toast.success(messages.quoteDeclined);
      quotes.updateRows((rows) => rows.map((q) => (q._id === declined._id ? declined : q)));
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setDeclining(null);
    }
  }

  const columns: Column<Quote>[] = [
    { header: 'Quote', rowHeader: true, cell: (q) => <span className="font-mono text-sm">{ref(q._id)}</span> },
    { header: 'Asked', className: 'whitespace-nowrap', cell: (q) => <When at={q.createdAt} /> },
    { header: 'Tools', cell: (q) => <QuoteLines quote={q} /> },
    { header: 'Total', className: 'tabular-nums whitespace-nowrap', cell: (q) => <QuoteTotal quote={q} /> },
    { header: 'State', cell: (q) => <QuoteStateBadge quote={q} /> },
    {
      header: 'Action',
      cell: (q) => (
        <span className="flex flex-wrap justify-end gap-2 sm:justify-start">
          {q.state === 'answered' && (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => setAccepting(q)}
              disabled={declining === q._id}
            >
              Accept<span className="sr-only"> quote {ref(q._id)}</span>
            </button>
          )}
          {(q.state === 'requested' || q.state === 'answered' || q.state === 'expired') && (
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={() => decline(q)}
              disabled={declining === q._id}
            >
              {declining === q._id ? 'Declining…' : 'Decline'}
              <span className="sr-only"> quote {ref(q._id)}</span>
            </button>
          )}
          {q.orderId && (
            <AppLink href={`/dashboard/orders/${q.orderId}`} className="text-xs font-semibold text-amber-dark">
              See the order
            </AppLink>
          )}
        </span>
      ),
    },
  ];

  return (
    <section>
      <ScreenHeader title="My Quotes" total={quotes.total} noun="quotes">
        Ask for a quote from a tool&apos;s page or your cart; we answer with a price per line.
      </ScreenHeader>
      <PagedTable
        list={quotes}
        loadingLabel="Loading your quotes…"
        pagerLabel="Quote pages"
        caption="My quotes"
        columns={columns}
        empty={messages.noQuotes}
      />
      {accepting && user && <AcceptDialog quote={accepting} user={user} onClose={() => setAccepting(null)} />}
      {dialog}
    </section>
  );
}

/** Where the order goes; on success, the order's payment page. */
function AcceptDialog({ quote, user, onClose }: { quote: Quote; user: SessionUser; onClose(): void }) {
  const form = useForm(EMPTY_DELIVERY, { checks: deliveryChecks });
  const [failure, setFailure] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const errors = deliveryErrors(form.values);
    form.setErrors(errors);
    if (Object.keys(errors).length) return;
    form.setBusy(true);
    setFailure('');
    try {
      const { insertedId } = await api.quotes.accept({ params: { id: quote._id }, body: deliveryJson(form.values) });
      toast.success(messages.quoteAccepted);
      navigate(`/dashboard/payment/${insertedId}`);
    } catch (e) {
      const fields = serverFieldErrors(e);
      if (fields?.address || fields?.phone)
        form.setErrors({ address: fields.address ?? '', phone: fields.phone ?? '' });
      setFailure(errorMessage(e, 'The quote could not be accepted. Please try again.'));
      form.setBusy(false);
    }
  }

  return (
    <FormDialog
      id="accept"
      title={<>Accept quote {ref(quote._id)}</>}
      intro={
        <>
          This places your order at the quoted prices
          {quote.totalCents !== null && (
            <>
              {' '}
              (<QuoteTotal quote={quote} />)
            </>
          )}
          ; you pay it on the next page.
        </>
      }
      busy={form.busy}
      onClose={onClose}
      onSubmit={submit}
    >
      <DeliveryFields user={user} bind={form.bind} />
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" className="btn btn-outline" onClick={onClose} disabled={form.busy}>
          Cancel
        </button>
        <SubmitButton busy={form.busy} busyLabel="Placing the order…">
          Accept and place the order
        </SubmitButton>
      </div>
    </FormDialog>
  );
}
