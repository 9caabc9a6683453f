// The next price break when a few more units reach it ("Add 12 more for $11.20 each"), as a button
// that adds them. The live region is always there, so the hint is announced when it appears.
import { nextBreakHint, nextBreakText, type Priced } from '../../lib/pricing';

interface Props {
  pricing: Priced & { packSize: number };
  quantity: number;
  /** Sets the quantity to the break's. */
  onAdd: (quantity: number) => void;
  className?: string;
}

export function NextBreak({ pricing, quantity, onAdd, className = '' }: Props) {
  const hint = Number.isInteger(quantity) ? nextBreakHint(pricing, quantity) : null;
  return (
    <p className={`text-sm ${className}`} aria-live="polite">
      {hint && (
        <button
          type="button"
          className="font-semibold text-amber-dark underline decoration-amber/60 underline-offset-2 hover:decoration-amber-dark"
          data-testid="next-break"
          onClick={() => onAdd(quantity + hint.more)}
        >
          {nextBreakText(hint)}
        </button>
      )}
    </p>
  );
}
