import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'warning' | 'success' | 'danger' | 'dark';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-steel-100 text-steel-700 ring-steel-300',
  warning: 'bg-amber/20 text-amber-dark ring-amber',
  success: 'bg-green-50 text-success ring-green-200',
  danger: 'bg-red-50 text-danger ring-red-200',
  dark: 'bg-ink text-white ring-ink',
};

/** The one status label (payment, shipping, role). Tones pass AA contrast on white. */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}
