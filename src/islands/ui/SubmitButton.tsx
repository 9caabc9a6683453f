import type { ButtonHTMLAttributes } from 'react';

/** A submit button that is disabled and shows progress while its request runs. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
  className = 'btn-primary',
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; busyLabel?: string }) {
  return (
    <button
      type="submit"
      className={`btn ${className}`}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && (
        <span
          className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
          aria-hidden="true"
        />
      )}
      {busy ? (busyLabel ?? children) : children}
    </button>
  );
}
