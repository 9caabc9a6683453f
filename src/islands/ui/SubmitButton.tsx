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

/** SubmitButton's twin for a button that acts on its own click (not a form's submit). */
export function ActionButton(props: ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; busyLabel?: string }) {
  return <SubmitButton type="button" {...props} />;
}

/** A button that opens a dialog (announced as such to screen readers). */
export function DialogButton({ className = 'btn-primary', ...rest }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type="button" className={`btn ${className}`} aria-haspopup="dialog" {...rest} />;
}
