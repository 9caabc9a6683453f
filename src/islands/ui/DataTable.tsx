// The one data table. Wide screens get a plain table; below 640 px each row stacks into a card whose
// cells carry their column's label, so nothing scrolls sideways on a phone. The explicit ARIA roles
// keep the table semantics that `display: block` would otherwise strip in some browsers.
import type { ReactNode } from 'react';
import { EmptyState } from './States';

export interface Column<T> {
  /** Column title, also shown beside the value when rows stack on a phone. */
  header: string;
  cell: (row: T) => ReactNode;
  /** The cell that names the row (rendered as a row header). */
  rowHeader?: boolean;
  /** Extra classes for this column's cells, e.g. 'text-right'. */
  className?: string;
}

interface Props<T> {
  /** Accessible name of the table (visually hidden). */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
  /** Dims the rows while a refresh runs. */
  busy?: boolean;
}

const stackCell = 'max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-4 max-sm:border-0 max-sm:px-0 max-sm:py-1.5 max-sm:text-right';
const stackLabel = 'max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:uppercase max-sm:before:tracking-wide max-sm:before:text-steel-600 max-sm:before:content-[attr(data-label)]';

export function DataTable<T>({ caption, columns, rows, rowKey, empty, busy }: Props<T>) {
  if (rows.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    // Focusable so a keyboard can scroll it sideways when a wide table overflows (from 640 px up).
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={`card overflow-x-auto max-sm:overflow-visible max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none ${busy ? 'opacity-60' : ''}`}
    >
      <table role="table" className="table-basic max-sm:block">
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className="max-sm:sr-only">
          <tr role="row">
            {columns.map((c) => (
              <th role="columnheader" scope="col" key={c.header} className={`whitespace-nowrap text-xs uppercase tracking-wide ${c.className ?? ''}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-sm:flex max-sm:flex-col max-sm:gap-3">
          {rows.map((row) => (
            <tr role="row" key={rowKey(row)} className="hover:bg-steel-50 max-sm:block max-sm:rounded-lg max-sm:border max-sm:border-steel-200 max-sm:bg-white max-sm:px-4 max-sm:py-2 max-sm:shadow-sm">
              {columns.map((c) => {
                const className = `${stackCell} ${stackLabel} ${c.className ?? ''}`;
                return c.rowHeader ? (
                  <th role="rowheader" scope="row" key={c.header} data-label={c.header} className={`border-b border-steel-100 bg-transparent px-3 py-2 text-left align-middle font-semibold text-ink [overflow-wrap:break-word] ${className}`}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td role="cell" key={c.header} data-label={c.header} className={className}>
                    {c.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An email that may wrap before its '@' rather than at a random letter in a narrow cell. */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
