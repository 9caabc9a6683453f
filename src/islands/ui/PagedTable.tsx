import { DataTable, type DataTableProps } from './DataTable';
import { Pager, type PagerProps } from './Pager';
import { Loaded } from './States';

interface Props<T> extends Omit<DataTableProps<T>, 'rows' | 'busy'> {
  /** What usePagedList gives. */
  list: { rows?: T[]; error?: string; loading: boolean; reload: () => void; pager: PagerProps['pager'] };
  /** The spinner's label until the first page comes; by default 'Loading ' and the caption, e.g. 'Loading messages…'. */
  loadingLabel?: string;
  /** The pager's landmark name, e.g. 'Order pages'. */
  pagerLabel: string;
}

/** A dashboard list a page at a time: spinner, load error with retry, the table (dimmed while it reloads) and its pager. */
export function PagedTable<T>({ list, loadingLabel, pagerLabel, ...table }: Props<T>) {
  const label = loadingLabel ?? `Loading ${table.caption.toLowerCase()}…`;
  return (
    <Loaded data={list.rows} error={list.error} onRetry={list.reload} label={label}>
      {(rows) => (
        <>
          <DataTable {...table} rows={rows} busy={list.loading} />
          <Pager label={pagerLabel} pager={list.pager} />
        </>
      )}
    </Loaded>
  );
}
