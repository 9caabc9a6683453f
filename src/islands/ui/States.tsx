import type { ReactNode } from 'react';
import { PageSpinner } from './Spinner';

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="card p-8 text-center text-steel-600">{children}</p>;
}

export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="card flex flex-wrap items-center justify-between gap-3 border-red-200 bg-red-50 p-5 text-danger"
    >
      <p className="text-sm font-medium">{message}</p>
      {onRetry && (
        <button type="button" className="btn btn-outline btn-sm" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/**
 * A screen's data as it loads: the failed load with a retry, a spinner until the first answer, then
 * `children` with the data (kept on screen while a later load runs or fails).
 */
export function Loaded<T>({
  data,
  error,
  onRetry,
  label,
  children,
}: {
  data: T | null | undefined;
  error?: string;
  onRetry: () => void;
  /** The spinner's label, e.g. 'Loading orders…'. */
  label: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      {error && <LoadError message={error} onRetry={onRetry} />}
      {data == null ? !error && <PageSpinner label={label} /> : children(data)}
    </>
  );
}
