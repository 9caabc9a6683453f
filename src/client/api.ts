// The one HTTP client of the browser (ky). Protected calls carry the stored access token; a 401 is
// retried once with a freshly exchanged token, then the user is signed out and sent to /login.
import ky, { isHTTPError, type Options } from 'ky';
import { accessToken } from './session-store';

const API_BASE: string = import.meta.env.PUBLIC_API_BASE ?? '/api';

const client = ky.create({
  prefix: API_BASE,
  retry: 0,
  timeout: 20_000,
  hooks: {
    beforeRequest: [
      ({ request }) => {
        const token = accessToken();
        if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
      },
    ],
  },
});

type Method = 'get' | 'post' | 'put' | 'delete';

async function call<T>(method: Method, path: string, options: Options = {}): Promise<T> {
  const send = () => client[method](path.replace(/^\//, ''), options).json<T>();
  try {
    return await send();
  } catch (error) {
    if (!isHTTPError(error) || error.response.status !== 401 || options.headers) throw error;
    const { renewAccessToken, expireSession } = await import('./session');
    if (await renewAccessToken()) {
      try {
        return await send();
      } catch (retryError) {
        if (!isHTTPError(retryError) || retryError.response.status !== 401) throw retryError;
      }
    }
    await expireSession();
    throw error;
  }
}

export const api = {
  get: <T>(path: string, options?: Options) => call<T>('get', path, options),
  post: <T>(path: string, json?: unknown, options?: Options) => call<T>('post', path, { ...options, json }),
  put: <T>(path: string, json?: unknown, options?: Options) => call<T>('put', path, { ...options, json }),
  delete: <T>(path: string, options?: Options) => call<T>('delete', path, options),
  /** Multipart upload (the image endpoint). */
  upload: <T>(path: string, body: FormData) => call<T>('post', path, { body, timeout: 60_000 }),
};

export const enc = encodeURIComponent;

/** The server's message for a failed call, for toasts and form errors. */
export function errorMessage(error: unknown, fallback = 'something went wrong'): string {
  if (isHTTPError(error)) {
    const data = error.data as { error?: { message?: string } } | undefined;
    return data?.error?.message ?? fallback;
  }
  if (error instanceof Error && error.name === 'TimeoutError') return 'The server took too long to answer. Please try again.';
  return fallback;
}

export function httpStatus(error: unknown): number | undefined {
  return isHTTPError(error) ? error.response.status : undefined;
}
