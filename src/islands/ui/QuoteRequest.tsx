// "Ask for a quote" (issue 26): the lines as they are, an optional note, POST /quotes. Not a form of
// its own: it sits inside the purchase form, and forms cannot nest.
import { useId, useState } from 'react';
import { api, errorMessage } from '../../client/infra/api';
import { toast } from '../../client/infra/toast';
import { LIMITS } from '../../lib/limits';
import { messages } from '../../lib/messages';

interface Props {
  items: { toolId: string; quantity: number }[];
  /** Why the lines cannot be asked about as they are (below the minimum, not whole packs). */
  problem?: string | null;
  /** Shown above the note, e.g. why a quote is needed. */
  intro?: string;
}

export const MY_QUOTES = '/dashboard/myquotes';

export function QuoteRequest({ items, problem, intro }: Props) {
  const id = useId();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send() {
    if (problem || busy) return;
    setBusy(true);
    setError(null);
    try {
      await api.quotes.request({ body: { items, note: note.trim() } });
      toast.success(messages.quoteRequested);
      setSent(true);
      setNote('');
    } catch (e) {
      setError(errorMessage(e, 'The quote request could not be sent. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3 rounded-md border border-steel-200 bg-steel-50 p-4" data-testid="quote-request">
      {intro && <p className="text-sm text-steel-700">{intro}</p>}
      <div>
        <label className="label" htmlFor={`${id}-note`}>
          Note for the quote (optional)
        </label>
        <textarea
          id={`${id}-note`}
          className="input resize-y"
          rows={2}
          maxLength={LIMITS.message}
          placeholder="Delivery date, site, packing…"
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      <button
        type="button"
        className="btn btn-dark w-full"
        disabled={Boolean(problem) || busy}
        aria-busy={busy || undefined}
        onClick={send}
      >
        {busy ? 'Sending…' : 'Ask for a quote'}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {sent && (
        <p className="text-sm text-success" role="status">
          {messages.quoteRequested}{' '}
          <a href={MY_QUOTES} className="font-semibold underline">
            See My Quotes
          </a>
        </p>
      )}
    </div>
  );
}
