import type { ReactNode } from 'react';

interface Props {
  title: string;
  /** The list's total count (spec: every list screen shows it), e.g. total={3} noun="orders" → "Total orders: 3". */
  total?: number;
  noun?: string;
  /** Short intro under the title. */
  children?: ReactNode;
}

/** A dashboard screen's heading, with the total count announced when it changes. */
export function ScreenHeader({ title, total, noun, children }: Props) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-2 border-b border-steel-200 pb-4">
      <div>
        <h1 className="text-2xl font-black tracking-tight sm:text-3xl">{title}</h1>
        {children && <p className="mt-1 text-sm text-steel-600">{children}</p>}
      </div>
      {total !== undefined && (
        <p
          className="rounded-md bg-ink px-3 py-1.5 text-sm font-semibold text-white"
          aria-live="polite"
          data-testid="total"
        >
          Total {noun}: <span className="text-amber">{total}</span>
        </p>
      )}
    </header>
  );
}
