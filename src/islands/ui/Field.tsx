import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface Common {
  label: string;
  name: string;
  error?: string | null;
  hint?: ReactNode;
}

/** Label, hint and error around one control, with the ids that tie them together for screen readers. */
function FieldFrame({
  id,
  label,
  error,
  hint,
  children,
}: Omit<Common, 'name'> & { id: string; children: (describedBy?: string) => ReactNode }) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {children(error ? errorId : hint ? hintId : undefined)}
      {hint && !error && (
        <p id={hintId} className="mt-1 text-xs text-steel-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The one labelled input with its error message underneath (announced to screen readers). */
export function Field({
  label,
  name,
  error,
  hint,
  id = `field-${name}`,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      {(describedBy) => (
        <input
          id={id}
          name={name}
          className={`input ${error ? 'border-danger' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
      )}
    </FieldFrame>
  );
}

/** The multi-line sibling of Field: same label, error and hint handling. */
export function TextAreaField({
  label,
  name,
  error,
  hint,
  id = `field-${name}`,
  rows = 4,
  ...area
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      {(describedBy) => (
        <textarea
          id={id}
          name={name}
          rows={rows}
          className={`input resize-y ${error ? 'border-danger' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...area}
        />
      )}
    </FieldFrame>
  );
}

/** The attributes of a money or decimal input (two decimals, the phone's decimal keypad). */
export const decimalInput = (min: number | string = 0) =>
  ({ type: 'number', inputMode: 'decimal', min, step: '0.01' }) as const;

/** The attributes of a whole-number input (the phone's numeric keypad). */
export const wholeInput = (min: number | string = 0) =>
  ({ type: 'number', inputMode: 'numeric', min, step: 1 }) as const;

/** A checkbox inside its label (the whole line toggles it). */
export function CheckboxField({
  label,
  checked,
  disabled,
  onChange,
  className = 'flex items-center gap-2 text-sm',
}: {
  label: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
}) {
  return (
    <label className={className}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 accent-amber-dark"
      />
      {label}
    </label>
  );
}
