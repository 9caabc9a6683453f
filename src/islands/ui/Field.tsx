import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface Props extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  error?: string | null;
  hint?: ReactNode;
}

/** The one labelled input with its error message underneath (announced to screen readers). */
export function Field({ label, name, error, hint, id = `field-${name}`, ...input }: Props) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
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
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        {...input}
      />
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

interface AreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  name: string;
  error?: string | null;
  hint?: ReactNode;
}

/** The multi-line sibling of Field: same label, error and hint handling. */
export function TextAreaField({ label, name, error, hint, id = `field-${name}`, rows = 4, ...area }: AreaProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        className={`input resize-y ${error ? 'border-danger' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        {...area}
      />
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
