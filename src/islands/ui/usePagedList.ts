// One page of a dashboard list at a time (GET …?limit=&cursor=), with its total. Pages are keyset
// pages: the cursors of the pages already passed are kept, so Previous goes back without asking the
// server to count rows, and a deep page costs what the first one does.
import { useCallback, useState } from 'react';
import { LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from '../../lib/limits';
import type { ListPage } from '../../lib/entities';
import { useResource, type Read } from './useResource';

/** A list read's input: its query gets the page's `limit` and `cursor`. */
interface ListInput {
  query?: { limit?: number; cursor?: string };
}
/** The page among a read's answers (a list read may answer the spec's plain array instead, when asked without paging). */
type PageOf<T> = Extract<T, ListPage<unknown>>;

/** Rows a page: LIST_PAGE_SIZE, or `?pageSize=` in the address (1 to 100), which tests use to see several pages. */
function pageSize(): number {
  const asked = typeof location === 'undefined' ? NaN : Number(new URLSearchParams(location.search).get('pageSize'));
  return Number.isInteger(asked) && asked >= 1 && asked <= MAX_LIST_PAGE_SIZE ? asked : LIST_PAGE_SIZE;
}

/**
 * The list a read answers, a page at a time: `read` an API call (api.<group>.<name>), `input` its
 * parameters and filters (null: nothing to read yet). The page's own fields beyond ListPage's (the
 * inbox's unread count) come with `page`.
 */
export function usePagedList<I, T>(read: Read<I, T>, input: NoInfer<Exclude<I, undefined>> | null, failure?: string) {
  type P = PageOf<T>;
  type Row = P['items'][number];
  const [size] = useState(pageSize);
  // cursors[i] opens page i (null: the first page), for the list asked with `input`: a new search or
  // filter (another input) starts again at its first page.
  const list = input === null ? null : JSON.stringify(input);
  const [paged, setPaged] = useState<{ list: string | null; cursors: (string | null)[] }>({ list, cursors: [null] });
  const cursors = paged.list === list ? paged.cursors : [null];
  const setCursors = useCallback(
    (change: (c: (string | null)[]) => (string | null)[]) =>
      setPaged((p) => ({ list, cursors: change(p.list === list ? p.cursors : [null]) })),
    [list],
  );
  const cursor = cursors[cursors.length - 1];
  const listed = input as ListInput | null;
  const asked = listed && { ...listed, query: { ...listed.query, limit: size, ...(cursor ? { cursor } : {}) } };
  const resource = useResource(read as unknown as Read<ListInput, P>, asked, failure);
  const nextCursor = resource.data?.nextCursor ?? null;

  // While a page loads, the data (and nextCursor) are still the last page's: a second click waits.
  const loading = resource.loading;
  const next = useCallback(() => {
    if (nextCursor && !loading) setCursors((c) => [...c, nextCursor]);
  }, [nextCursor, loading, setCursors]);
  const previous = useCallback(() => {
    if (!loading) setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c));
  }, [loading, setCursors]);
  /** Changes the rows shown after a successful write (a deletion also lowers the total). */
  const update = resource.update;
  const updateRows = useCallback(
    (change: (rows: Row[]) => Row[]) =>
      update((page) => {
        const items = change(page.items);
        return { ...page, items, total: Math.max(0, page.total - (page.items.length - items.length)) };
      }),
    [update],
  );

  return {
    /** The page as answered (its extra fields), and a way to change it after a successful write. */
    page: resource.data,
    updatePage: update,
    rows: resource.data?.items as Row[] | undefined,
    total: resource.data?.total,
    error: resource.error,
    loading: resource.loading,
    reload: resource.reload,
    updateRows,
    pager: {
      page: cursors.length - 1,
      size,
      shown: resource.data?.items.length ?? 0,
      total: resource.data?.total ?? 0,
      hasPrevious: cursors.length > 1,
      hasNext: nextCursor !== null,
      busy: resource.loading,
      previous,
      next,
    },
  };
}
export type PagerState = ReturnType<typeof usePagedList<ListInput, ListPage<unknown>>>['pager'];
