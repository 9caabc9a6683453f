/** The one loading indicator. */
export function Spinner({ label = 'Loading…', className = '' }: { label?: string; className?: string }) {
  return (
    <span role="status" className={`inline-flex items-center gap-2 text-steel-600 ${className}`}>
      <span
        className="h-5 w-5 animate-spin rounded-full border-2 border-steel-300 border-t-amber-dark"
        aria-hidden="true"
      />
      <span className="text-sm">{label}</span>
    </span>
  );
}

export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}
