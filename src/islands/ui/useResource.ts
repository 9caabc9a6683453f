// Loads one API resource for a screen: data, loading and error states, a reload, and local updates
// after a successful write (so a list does not refetch for every row it changes).
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage } from '../../client/api';

/** The last answer: which request it answered (path and reload count), its data or its error. */
interface Answer<T> {
  request: string | null;
  data?: T;
  error?: string;
}

export function useResource<T>(path: string | null, failure = 'Could not load this page. Please try again.') {
  const [answer, setAnswer] = useState<Answer<T>>({ request: null });
  const [version, setVersion] = useState(0);
  const request = path === null ? null : `${version} ${path}`;

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    const asked = `${version} ${path}`;
    api.get<T>(path, { signal: controller.signal }).then(
      (data) => setAnswer({ request: asked, data }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setAnswer((a) => ({ request: asked, data: a.data, error: errorMessage(error, failure) }));
      },
    );
    return () => controller.abort();
  }, [path, version, failure]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const update = useCallback(
    (change: (data: T) => T) => setAnswer((a) => (a.data === undefined ? a : { ...a, data: change(a.data) })),
    [],
  );
  // Until the current request answers: loading, with the last data kept and no error shown.
  const loading = request !== null && answer.request !== request;
  return { data: answer.data, error: loading ? undefined : answer.error, loading, reload, update };
}
