// The one data table. Where it has room it is a plain table; where its space is under 42rem (a phone,
// or a tablet beside the dashboard's menu: a container query, not the window's width) each row stacks
// into a card whose cells carry their column's label, so nothing scrolls sideways. The explicit ARIA
// roles keep the table semantics that `display: block` would otherwise strip in some browsers.
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

export interface DataTableProps<T> {
  /** Accessible name of the table (visually hidden). */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  /** What tells rows apart (React's key); rows with an `_id` are told apart by it unless this is given. */
  rowKey?: (row: T) => string;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
  /** Dims the rows while a refresh runs. */
  busy?: boolean;
  /**
   * For a table with many columns, so it fits 1280 px beside the menu: narrower padding, plain headers that may
   * wrap, and long words that may break anywhere (a column that must not break says `whitespace-nowrap`).
   */
  dense?: boolean;
}

function byId(row: unknown): string {
  const id = (row as { _id?: string })._id;
  if (id === undefined) throw new Error('DataTable: these rows have no _id; give the table a rowKey');
  return id;
}

const stackCell =
  '@max-2xl:flex @max-2xl:items-center @max-2xl:justify-between @max-2xl:gap-4 @max-2xl:border-0 @max-2xl:px-0 @max-2xl:py-1.5 @max-2xl:text-right';
const stackLabel =
  '@max-2xl:before:shrink-0 @max-2xl:before:text-xs @max-2xl:before:font-semibold @max-2xl:before:uppercase @max-2xl:before:tracking-wide @max-2xl:before:text-steel-600 @max-2xl:before:content-[attr(data-label)]';

export function DataTable<T>({ caption, columns, rows, rowKey = byId, empty, busy, dense }: DataTableProps<T>) {
  if (rows.length === 0) return <EmptyState>{empty}</EmptyState>;
  // Dense: long words (an email, a product's code) may break anywhere, so no one cell widens the table.
  const cellSpacing = dense ? 'px-2 [overflow-wrap:anywhere]' : 'px-3';
  return (
    <div className="@container">
      {/* Focusable so a keyboard can scroll it sideways when a wide table still overflows its card;
          positioned, so the cells' visually hidden text stays inside what scrolls. */}
      <div
        role="region"
        aria-label={caption}
        tabIndex={0}
        className={`card relative overflow-x-auto @max-2xl:overflow-visible @max-2xl:border-0 @max-2xl:bg-transparent @max-2xl:shadow-none ${busy ? 'opacity-60' : ''}`}
      >
        <table role="table" className="table-basic @max-2xl:block">
          <caption className="sr-only">{caption}</caption>
          <thead role="rowgroup" className="@max-2xl:sr-only">
            <tr role="row">
              {columns.map((c) => (
                <th
                  role="columnheader"
                  scope="col"
                  key={c.header}
                  className={`text-xs uppercase ${dense ? 'px-2 tracking-normal' : 'px-3 whitespace-nowrap tracking-wide'} ${c.className ?? ''}`}
                >
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup" className="@max-2xl:flex @max-2xl:flex-col @max-2xl:gap-3">
            {rows.map((row) => (
              <tr
                role="row"
                key={rowKey(row)}
                className="hover:bg-steel-50 @max-2xl:block @max-2xl:rounded-lg @max-2xl:border @max-2xl:border-steel-200 @max-2xl:bg-white @max-2xl:px-4 @max-2xl:py-2 @max-2xl:shadow-sm"
              >
                {columns.map((c) => {
                  const className = `${cellSpacing} ${stackCell} ${stackLabel} ${c.className ?? ''}`;
                  return c.rowHeader ? (
                    <th
                      role="rowheader"
                      scope="row"
                      key={c.header}
                      data-label={c.header}
                      className={`border-b border-steel-100 bg-transparent py-2 text-left align-middle font-semibold text-ink ${dense ? '' : '[overflow-wrap:break-word]'} ${className}`}
                    >
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
