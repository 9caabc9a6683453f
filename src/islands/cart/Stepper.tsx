// A cart line's quantity: − and + by the tool's pack (one unit when it has none), or typed.
import { setQuantity, type CartLine } from '../../client/state/cart';

export function Stepper({ line, step = 1, onChange }: { line: CartLine; step?: number; onChange: () => void }) {
  const name = line.name || 'this tool';
  const change = (quantity: number) => {
    if (Number.isInteger(quantity) && quantity >= 1) {
      setQuantity(line.toolId, quantity);
      onChange();
    }
  };
  const less = step > 1 ? `${step} fewer of ${name}` : `One less of ${name}`;
  const more = step > 1 ? `${step} more of ${name}` : `One more of ${name}`;
  return (
    <div className="flex items-center justify-center gap-1">
      <button
        type="button"
        className="btn btn-outline btn-sm"
        aria-label={less}
        disabled={line.quantity - step < 1}
        onClick={() => change(line.quantity - step)}
      >
        −
      </button>
      <input
        className="input w-20 text-center tabular-nums"
        type="number"
        inputMode="numeric"
        min={step}
        step={step}
        aria-label={`Quantity of ${name}`}
        value={line.quantity}
        onChange={(e) => change(Number(e.target.value))}
      />
      <button
        type="button"
        className="btn btn-outline btn-sm"
        aria-label={more}
        onClick={() => change(line.quantity + step)}
      >
        +
      </button>
    </div>
  );
}
