// The product form's price breaks: rows of "from quantity" and "unit price", added and removed, each
// input with its own label and message (errors keyed `priceBreaks.{i}.minQuantity` / `.price`).
import { useId } from 'react';

export interface BreakRow {
  minQuantity: string;
  price: string;
}

interface Props {
  rows: BreakRow[];
  max: number;
  errors: Record<string, string>;
  disabled?: boolean;
  onChange: (rows: BreakRow[]) => void;
}

export function PriceBreakRows({ rows, max, errors, disabled, onChange }: Props) {
  const id = useId();
  const set = (i: number, change: Partial<BreakRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const listError =
    errors.priceBreaks &&
    !rows.some((_, i) => errors[`priceBreaks.${i}.minQuantity`] || errors[`priceBreaks.${i}.price`]);
  return (
    <div role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-about`}>
      <p id={`${id}-title`} className="label">
        Price breaks
      </p>
      <p id={`${id}-about`} className="text-xs text-steel-600">
        Up to {max}: from a quantity on, each unit costs less. The first starts above the minimum order.
      </p>
      {rows.length > 0 && (
        <ol className="mt-3 space-y-3">
          {rows.map((row, i) => {
            const n = i + 1;
            const quantityError = errors[`priceBreaks.${i}.minQuantity`];
            const priceError = errors[`priceBreaks.${i}.price`];
            return (
              <li
                key={i}
                className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[1fr_1fr_auto]"
                data-testid="price-break"
              >
                <BreakInput
                  id={`${id}-${i}-q`}
                  label="From quantity"
                  srLabel={`, break ${n}`}
                  inputMode="numeric"
                  step="1"
                  min="2"
                  value={row.minQuantity}
                  error={quantityError}
                  disabled={disabled}
                  onChange={(minQuantity) => set(i, { minQuantity })}
                />
                <BreakInput
                  id={`${id}-${i}-p`}
                  label="Unit price (USD)"
                  srLabel={`, break ${n}`}
                  inputMode="decimal"
                  step="0.01"
                  min="0.01"
                  value={row.price}
                  error={priceError}
                  disabled={disabled}
                  onChange={(price) => set(i, { price })}
                />
                <button
                  type="button"
                  className="btn btn-outline btn-sm col-span-2 justify-self-start sm:col-span-1 sm:mt-7"
                  disabled={disabled}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                >
                  Remove<span className="sr-only"> break {n}</span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {listError && (
        <p className="field-error" role="alert">
          {errors.priceBreaks}
        </p>
      )}
      <button
        type="button"
        className="btn btn-outline btn-sm mt-3"
        disabled={disabled || rows.length >= max}
        onClick={() => onChange([...rows, { minQuantity: '', price: '' }])}
      >
        Add a price break
      </button>
    </div>
  );
}

interface InputProps {
  id: string;
  label: string;
  srLabel: string;
  inputMode: 'numeric' | 'decimal';
  step: string;
  min: string;
  value: string;
  error?: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}

function BreakInput({ id, label, srLabel, error, onChange, ...input }: InputProps) {
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
        <span className="sr-only">{srLabel}</span>
      </label>
      <input
        id={id}
        type="number"
        className={`input ${error ? 'border-danger' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
