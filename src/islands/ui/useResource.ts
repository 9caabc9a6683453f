// Loads one API resource for a screen: data, loading and error states, a reload, and local updates
// after a successful write (so a list does not refetch for every row it changes).
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../client/infra/api';
import type { CallOptions } from '../../client/infra/api-calls';

/** A read of the typed client (api.<group>.<name>), and the input it takes. */
export type Read<I, T> = ((input: I, options?: CallOptions) => Promise<T>) & { readonly route: string };

/** The last answer: which request it answered (path and reload count), its data or its error. */
interface Answer<T> {
  request: string | null;
  data?: T;
  error?: string;
}

/** `input` null: nothing to read yet (the signed-in user is not known). */
export function useResource<I, T>(
  read: Read<I, T>,
  input: NoInfer<I> | null,
  failure = 'Could not load this page. Please try again.',
) {
  const [answer, setAnswer] = useState<Answer<T>>({ request: null });
  const [version, setVersion] = useState(0);
  // The request's identity: which call with which input (an input is a small plain object).
  const key = input === null ? null : `${read.route} ${JSON.stringify(input)}`;
  const request = key === null ? null : `${version} ${key}`;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const asked = `${version} ${key}`;
    // The input as the key holds it: a caller's new object with the same content asks nothing again.
    read(JSON.parse(key.slice(read.route.length + 1)) as I, { signal: controller.signal }).then(
      (data) => setAnswer({ request: asked, data }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setAnswer((a) => ({ request: asked, data: a.data, error: errorMessage(error, failure) }));
      },
    );
    return () => controller.abort();
  }, [read, key, version, failure]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const update = useCallback(
    (change: (data: T) => T) => setAnswer((a) => (a.data === undefined ? a : { ...a, data: change(a.data) })),
    [],
  );
  // Until the current request answers: loading, with the last data kept and no error shown.
  const loading = request !== null && answer.request !== request;
  return { data: answer.data, error: loading ? undefined : answer.error, loading, reload, update };
}
