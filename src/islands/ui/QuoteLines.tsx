// A quote's parts, on My Quotes and the admins' Quotes screen: its lines (quantity, list price and the
// shop's price once answered), its total and its state.
import type { Quote, QuoteState } from '../../lib/entities';
import { formatCents, toCents } from '../../lib/money';
import { Badge, type BadgeTone } from './Badge';
import { When } from './When';

/** Each line as 'quantity × tool', then the list price, struck through once the shop's price is given. */
export function QuoteLines({ quote }: { quote: Pick<Quote, 'lines'> }) {
  return (
    <ul className="block min-w-48 text-left text-sm @max-2xl:max-w-[70%]" aria-label="Quote lines">
      {quote.lines.map((line, i) => (
        <li key={i} className="py-0.5" data-testid="quote-line">
          <span className="font-semibold">
            {line.quantity} × {line.productName}
          </span>
          {line.toolId === null && <span className="text-xs text-danger"> (no longer sold)</span>}
          <span className="block text-xs tabular-nums text-steel-600">
            {line.price === null ? (
              <>List {formatCents(toCents(line.listPrice))} each</>
            ) : (
              <>
                <s aria-label={`list price ${formatCents(toCents(line.listPrice))}`}>
                  {formatCents(toCents(line.listPrice))}
                </s>{' '}
                <strong className="text-ink">{formatCents(toCents(line.price))}</strong> each
              </>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The quote's total: the quoted one once answered, else the list total as a guide. */
export function QuoteTotal({ quote }: { quote: Pick<Quote, 'lines' | 'totalCents'> }) {
  if (quote.totalCents !== null) return <span className="font-semibold">{formatCents(quote.totalCents)}</span>;
  const list = quote.lines.reduce((sum, l) => sum + l.quantity * toCents(l.listPrice), 0);
  return <span className="text-steel-600">List {formatCents(list)}</span>;
}

const STATES: Record<QuoteState, [string, BadgeTone]> = {
  requested: ['Awaiting answer', 'warning'],
  answered: ['Answered', 'success'],
  accepted: ['Accepted', 'dark'],
  declined: ['Declined', 'neutral'],
  expired: ['Expired', 'danger'],
};

/** The state as a badge, and until when an answered quote stands (or when it ran out). */
export function QuoteStateBadge({ quote }: { quote: Pick<Quote, 'state' | 'expiresAt'> }) {
  const [label, tone] = STATES[quote.state];
  return (
    <span className="flex flex-col items-end gap-1 sm:items-start">
      <Badge tone={tone}>{label}</Badge>
      {quote.expiresAt && (quote.state === 'answered' || quote.state === 'expired') && (
        <span className="text-xs text-steel-600">
          {quote.state === 'expired' ? 'Ran out' : 'Until'} <When at={quote.expiresAt} />
        </span>
      )}
    </span>
  );
}
