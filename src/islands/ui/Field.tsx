import type { InputHTMLAttributes, ReactNode } from 'react';

interface Props extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  error?: string | null;
  hint?: ReactNode;
}

/** The one labelled input with its error message underneath (announced to screen readers). */
export function Field({ label, name, error, hint, id = `field-${name}`, ...input }: Props) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        className={`input ${error ? 'border-danger' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {hint && !error && <p className="mt-1 text-xs text-steel-600">{hint}</p>}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
