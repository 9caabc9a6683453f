// A screen's view kept in the address (search, filters, sort), so a view can be shared or bookmarked
// and Back returns to the last one. Other parameters of the address (e.g. pageSize) are left alone.
import { useCallback, useEffect, useState } from 'react';

export type UrlQuery<K extends string> = Record<K, string>;

function read<K extends string>(keys: readonly K[]): UrlQuery<K> {
  const params = new URLSearchParams(typeof location === 'undefined' ? '' : location.search);
  return Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as UrlQuery<K>;
}

export function useUrlQuery<K extends string>(keys: readonly K[]) {
  const [values, setValues] = useState(() => read(keys));
  useEffect(() => {
    const onPop = () => setValues(read(keys));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [keys]);

  /** Changes some of the fields; an empty one leaves the address. Each change is a step Back can undo. */
  const update = useCallback(
    (change: Partial<UrlQuery<K>>) => {
      const params = new URLSearchParams(location.search);
      for (const [key, value] of Object.entries(change) as [K, string][]) {
        if (value) params.set(key, value);
        else params.delete(key);
      }
      const search = params.toString();
      history.pushState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
      setValues(read(keys));
    },
    [keys],
  );
  return [values, update] as const;
}

/** The fields that have a value, for an API call's query. */
export function present<K extends string>(values: UrlQuery<K>): Partial<UrlQuery<K>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value)) as Partial<UrlQuery<K>>;
}
