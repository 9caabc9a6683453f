// Loads one API resource for a screen: data, loading and error states, a reload, and local updates
// after a successful write (so a list does not refetch for every row it changes).
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage } from '../../client/api';

interface State<T> {
  data?: T;
  error?: string;
  loading: boolean;
}

export function useResource<T>(path: string | null, failure = 'Could not load this page. Please try again.') {
  const [state, setState] = useState<State<T>>({ loading: path !== null });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    api.get<T>(path, { signal: controller.signal }).then(
      (data) => setState({ data, loading: false }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, loading: false, error: errorMessage(error, failure) }));
      },
    );
    return () => controller.abort();
  }, [path, version, failure]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const update = useCallback((change: (data: T) => T) => setState((s) => (s.data === undefined ? s : { ...s, data: change(s.data) })), []);
  return { ...state, reload, update };
}
