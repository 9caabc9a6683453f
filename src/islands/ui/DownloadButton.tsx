// A button that fetches a file and saves it (Download my data, the CSV exports): a spinner and words while it works.
export function DownloadButton({
  busy,
  label,
  busyLabel = 'Preparing the file…',
  type = 'button',
  onClick,
  describedBy,
  className = '',
}: {
  busy: boolean;
  label: string;
  busyLabel?: string;
  type?: 'button' | 'submit';
  onClick?: () => void;
  describedBy?: string;
  className?: string;
}) {
  return (
    <button
      type={type}
      className={`btn btn-outline max-sm:w-full ${className}`}
      onClick={onClick}
      disabled={busy}
      aria-busy={busy || undefined}
      aria-describedby={describedBy}
    >
      {busy ? (
        <span
          className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
          aria-hidden="true"
        />
      ) : (
        <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true" className="fill-current">
          <path d="M9 2h2v8.6l3.3-3.3 1.4 1.4L10 14.4 4.3 8.7l1.4-1.4L9 10.6zM3 16h14v2H3z" />
        </svg>
      )}
      {busy ? busyLabel : label}
    </button>
  );
}
