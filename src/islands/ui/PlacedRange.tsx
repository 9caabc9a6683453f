import { Field } from './Field';

type End = 'from' | 'to';

/**
 * The days an order was placed between, as two date fields that bound each other (the until day cannot
 * come before the from day). Empty means no bound. Used by the orders filter and the orders export.
 */
export function PlacedRange({
  idPrefix,
  from,
  to,
  onChange,
}: {
  idPrefix: string;
  from: string;
  to: string;
  onChange: (change: { from: string } | { to: string }) => void;
}) {
  const day = (end: End, label: string, value: string) => ({
    label,
    name: end,
    id: `${idPrefix}-${end}`,
    type: 'date',
    value,
    onChange: (e: { target: { value: string } }) =>
      onChange(end === 'from' ? { from: e.target.value } : { to: e.target.value }),
  });
  return (
    <>
      <Field {...day('from', 'Placed from', from)} max={to || undefined} />
      <Field {...day('to', 'Placed until', to)} min={from || undefined} />
    </>
  );
}
