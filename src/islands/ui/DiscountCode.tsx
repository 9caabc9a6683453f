// The 'Discount code' field with its Apply button (issue 27), for the cart and the purchase form. Not a
// form of its own: it sits inside the purchase form, so Enter applies the code instead of ordering.
import type { KeyboardEvent } from 'react';
import type { TotalsQuote } from './useTotalsQuote';

export function DiscountCode({ quote, id = 'discount-code' }: { quote: TotalsQuote; id?: string }) {
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void quote.apply();
  }
  return (
    <div>
      <label className="label" htmlFor={id}>
        Discount code
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          name="discountCode"
          className={`input min-w-0 flex-1 uppercase ${quote.codeError ? 'border-danger' : ''}`}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={quote.code}
          onChange={(e) => quote.setCode(e.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={quote.codeError ? true : undefined}
          aria-describedby={quote.codeError ? errorId : quote.applied ? statusId : undefined}
        />
        <button
          type="button"
          className="btn btn-outline shrink-0"
          onClick={() => void quote.apply()}
          disabled={quote.applying || !quote.code.trim()}
        >
          {quote.applying ? 'Applying…' : 'Apply'}
        </button>
      </div>
      {quote.codeError && (
        <p id={errorId} className="field-error" role="alert">
          {quote.codeError}
        </p>
      )}
      {quote.applied && !quote.codeError && (
        <p id={statusId} className="mt-1 text-xs text-success" role="status">
          Code {quote.applied} applied.
        </p>
      )}
    </div>
  );
}
