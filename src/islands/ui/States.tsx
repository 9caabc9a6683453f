import type { ReactNode } from 'react';

/** What a screen shows when there is nothing to list yet. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="card p-8 text-center text-steel-600">{children}</p>;
}

/** A failed load, with a way to try again. */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="card flex flex-wrap items-center justify-between gap-3 border-red-200 bg-red-50 p-5 text-danger">
      <p className="text-sm font-medium">{message}</p>
      {onRetry && (
        <button type="button" className="btn btn-outline btn-sm" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
