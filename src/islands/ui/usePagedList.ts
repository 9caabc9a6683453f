// One page of a dashboard list at a time (GET …?limit=&cursor=), with its total. Pages are keyset
// pages: the cursors of the pages already passed are kept, so Previous goes back without asking the
// server to count rows, and a deep page costs what the first one does.
import { useCallback, useState } from 'react';
import { LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from '../../lib/limits';
import type { ListPage } from '../../lib/entities';
import { useResource } from './useResource';

/** Rows a page: LIST_PAGE_SIZE, or `?pageSize=` in the address (1 to 100), which tests use to see several pages. */
function pageSize(): number {
  const asked = typeof location === 'undefined' ? NaN : Number(new URLSearchParams(location.search).get('pageSize'));
  return Number.isInteger(asked) && asked >= 1 && asked <= MAX_LIST_PAGE_SIZE ? asked : LIST_PAGE_SIZE;
}

/** `P`: the page's shape, when a list answers more than ListPage's fields (the inbox's unread count). */
export function usePagedList<T, P extends ListPage<T> = ListPage<T>>(path: string | null, failure?: string) {
  const [size] = useState(pageSize);
  // cursors[i] opens page i (null: the first page), for the list at `path`: a new search or filter
  // (another path) starts again at its first page.
  const [paged, setPaged] = useState<{ path: string | null; cursors: (string | null)[] }>({ path, cursors: [null] });
  const cursors = paged.path === path ? paged.cursors : [null];
  const setCursors = useCallback(
    (change: (c: (string | null)[]) => (string | null)[]) =>
      setPaged((p) => ({ path, cursors: change(p.path === path ? p.cursors : [null]) })),
    [path],
  );
  const cursor = cursors[cursors.length - 1];
  const joiner = path?.includes('?') ? '&' : '?';
  const list = useResource<P>(path && `${path}${joiner}limit=${size}${cursor ? `&cursor=${cursor}` : ''}`, failure);
  const nextCursor = list.data?.nextCursor ?? null;

  // While a page loads, the data (and nextCursor) are still the last page's: a second click waits.
  const loading = list.loading;
  const next = useCallback(() => {
    if (nextCursor && !loading) setCursors((c) => [...c, nextCursor]);
  }, [nextCursor, loading, setCursors]);
  const previous = useCallback(() => {
    if (!loading) setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c));
  }, [loading, setCursors]);
  /** Changes the rows shown after a successful write (a deletion also lowers the total). */
  const update = list.update;
  const updateRows = useCallback(
    (change: (rows: T[]) => T[]) =>
      update((page) => {
        const items = change(page.items);
        return { ...page, items, total: Math.max(0, page.total - (page.items.length - items.length)) };
      }),
    [update],
  );

  return {
    /** The page as answered (its extra fields), and a way to change it after a successful write. */
    page: list.data,
    updatePage: update,
    rows: list.data?.items,
    total: list.data?.total,
    error: list.error,
    loading: list.loading,
    reload: list.reload,
    updateRows,
    pager: {
      page: cursors.length - 1,
      size,
      shown: list.data?.items.length ?? 0,
      total: list.data?.total ?? 0,
      hasPrevious: cursors.length > 1,
      hasNext: nextCursor !== null,
      busy: list.loading,
      previous,
      next,
    },
  };
}
export type PagerState = ReturnType<typeof usePagedList>['pager'];
