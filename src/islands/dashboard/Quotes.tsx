// Quotes (admins, issue 26): every quote request, newest first, filtered by state. A quote not yet
// accepted or declined is answered (or answered again) in a dialog: a unit price per line, prefilled
// with the list price, and the day the offer ends; the total follows as prices change.
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { isoDate } from '../../lib/dates';
import type { Quote } from '../../lib/entities';
import { QUOTE_STATES } from '../../lib/states';
import { messages } from '../../lib/messages';
import { formatCents, toCents } from '../../lib/money';
import { fieldErrors, quoteAnswerSchema } from '../../lib/schemas';
import { EmailText, type Column } from '../ui/DataTable';
import { decimalInput, Field } from '../ui/Field';
import { FormDialog } from '../ui/Modal';
import { QuoteLines, QuoteStateBadge, QuoteTotal } from '../ui/QuoteLines';
import { PagedTable } from '../ui/PagedTable';
import { ScreenHeader } from '../ui/ScreenHeader';
import { usePagedList } from '../ui/usePagedList';
import { useUrlQuery } from '../ui/useUrlQuery';
import { ViewSelect } from '../ui/ViewSelect';
import { When } from '../ui/When';
import { DialogActions } from '../ui/DialogActions';

const VIEW_FIELDS = ['state'] as const;
const STATE_LABELS: Record<(typeof QUOTE_STATES)[number], string> = {
  requested: 'Awaiting answer',
  answered: 'Answered',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
};
/** How long an offer stands unless the admin says otherwise. */
const DEFAULT_OFFER_DAYS = 14;
const ref = (id: string) => id.slice(-8).toUpperCase();
const answerable = (q: Quote) =>
  (q.state === 'requested' || q.state === 'answered' || q.state === 'expired') &&
  q.lines.every((l) => l.toolId !== null);

export default function Quotes() {
  const [view, setView] = useUrlQuery(VIEW_FIELDS);
  const state = QUOTE_STATES.find((s) => s === view.state);
  const quotes = usePagedList(api.quotes.list, { query: { state } }, 'Could not load the quotes.');
  const [answering, setAnswering] = useState<Quote | null>(null);

  const columns: Column<Quote>[] = [
    { header: 'Quote', rowHeader: true, cell: (q) => <span className="font-mono text-sm">{ref(q._id)}</span> },
    { header: 'Asked', className: 'whitespace-nowrap', cell: (q) => <When at={q.createdAt} withTime /> },
    {
      header: 'Buyer',
      cell: (q) => (
        <span className="block min-w-32 text-sm @max-2xl:max-w-[65%]">
          <span className="block font-semibold">{q.userName}</span>
          <span className="text-xs text-steel-600">
            <EmailText email={q.email} />
          </span>
          {q.note && <span className="mt-1 block whitespace-pre-wrap text-xs italic text-steel-700">“{q.note}”</span>}
        </span>
      ),
    },
    { header: 'Tools', cell: (q) => <QuoteLines quote={q} /> },
    { header: 'Total', className: 'tabular-nums whitespace-nowrap', cell: (q) => <QuoteTotal quote={q} /> },
    { header: 'State', cell: (q) => <QuoteStateBadge quote={q} /> },
    {
      header: 'Action',
      cell: (q) =>
        answerable(q) ? (
          <button
            type="button"
            className={`btn btn-sm ${q.state === 'requested' ? 'btn-primary' : 'btn-outline'}`}
            onClick={() => setAnswering(q)}
          >
            {q.state === 'requested' ? 'Answer' : 'Answer again'}
            <span className="sr-only"> quote {ref(q._id)}</span>
          </button>
        ) : (
          <span className="text-xs text-steel-600">—</span>
        ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Quotes" total={quotes.total} noun={state ? 'matching quotes' : 'quotes'}>
        Buyers ask for a price; answer with a unit price per line and how long the offer stands.
      </ScreenHeader>
      <div className="card mb-4 grid gap-3 p-4 sm:grid-cols-2 xl:grid-cols-3" role="search" aria-label="Filter quotes">
        <ViewSelect
          id="quotes-state"
          label="State"
          value={state ?? ''}
          onChange={(state) => setView({ state })}
          options={[['', 'Any state'], ...QUOTE_STATES.map((s) => [s, STATE_LABELS[s]] as const)]}
        />
      </div>
      <PagedTable
        list={quotes}
        loadingLabel="Loading quotes…"
        pagerLabel="Quote pages"
        caption="Quote requests"
        columns={columns}
        empty={state ? 'No quotes in this state.' : messages.noQuotes}
      />
      {answering && (
        <AnswerDialog
          quote={answering}
          onClose={() => setAnswering(null)}
          onAnswered={(answered) => {
            setAnswering(null);
            toast.success(messages.quoteAnswered);
            quotes.updateRows((list) => list.map((q) => (q._id === answered._id ? answered : q)));
          }}
        />
      )}
    </>
  );
}

function AnswerDialog({
  quote,
  onClose,
  onAnswered,
}: {
  quote: Quote;
  onClose(): void;
  onAnswered(quote: Quote): void;
}) {
  const [prices, setPrices] = useState(() => quote.lines.map((l) => String(l.price ?? l.listPrice)));
  const [expiresAt, setExpiresAt] = useState(() => isoDate(new Date(Date.now() + DEFAULT_OFFER_DAYS * 86_400_000)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const totalCents = quote.lines.reduce((sum, l, i) => {
    const price = Number(prices[i]);
    return Number.isFinite(price) && price > 0 ? sum + l.quantity * toCents(price) : sum;
  }, 0);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = quoteAnswerSchema.safeParse({
      lines: quote.lines.map((l, i) => ({ toolId: l.toolId, price: prices[i] })),
      expiresAt,
    });
    if (!parsed.success) {
      // A price's message goes under its own line's input (fieldErrors keys by the first path part only).
      const perLine = Object.fromEntries(
        parsed.error.issues.filter((i) => i.path.length === 3).map((i) => [i.path.join('.'), i.message]),
      );
      return setErrors({
        ...fieldErrors(parsed.error),
        ...perLine,
        ...(Object.keys(perLine).length ? { lines: '' } : {}),
      });
    }
    if (parsed.data.expiresAt <= new Date()) return setErrors({ expiresAt: messages.quoteExpiryPast });
    setBusy(true);
    try {
      onAnswered(await api.quotes.answer({ params: { id: quote._id }, body: { lines: parsed.data.lines, expiresAt } }));
    } catch (error) {
      setErrors({ form: errorMessage(error, 'The quote could not be answered. Please try again.') });
      setBusy(false);
    }
  }

  return (
    <FormDialog
      id="answer"
      title={<>Answer quote {ref(quote._id)}</>}
      intro={
        <>
          For <span className="break-all">{quote.email}</span>. The buyer is emailed your prices.
        </>
      }
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
    >
      {quote.lines.map((line, i) => (
        <Field
          key={i}
          label={`Unit price for ${line.quantity} × ${line.productName} ($)`}
          name={`price-${i}`}
          {...decimalInput('0.01')}
          value={prices[i]}
          disabled={busy}
          error={errors[`lines.${i}.price`]}
          hint={`List price ${formatCents(toCents(line.listPrice))}`}
          onChange={(e) => {
            const value = e.target.value;
            setPrices((p) => p.map((old, j) => (j === i ? value : old)));
            setErrors(({ [`lines.${i}.price`]: _, form: __, ...rest }) => rest);
          }}
        />
      ))}
      <Field
        label="Offer ends on"
        name="expiresAt"
        type="date"
        min={isoDate(new Date())}
        value={expiresAt}
        disabled={busy}
        error={errors.expiresAt}
        onChange={(e) => {
          setExpiresAt(e.target.value);
          setErrors(({ expiresAt: _, form: __, ...rest }) => rest);
        }}
      />
      <p className="flex justify-between border-t border-steel-200 pt-3 font-semibold" aria-live="polite">
        <span>Total</span>
        <span className="tabular-nums" data-testid="answer-total">
          {formatCents(totalCents)}
        </span>
      </p>
      <DialogActions
        error={errors.form || errors.lines}
        busy={busy}
        onClose={onClose}
        label="Send the answer"
        busyLabel="Sending…"
      />
    </FormDialog>
  );
}
