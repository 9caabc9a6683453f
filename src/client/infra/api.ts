// The browser's API client: api.<group>.<name>(input, options), typed by the contracts
// (client/infra/api-calls.ts), sent with ky. Protected calls carry the stored access token; a 401 goes to the
// session's handler (client/state/session.ts registers it when it loads): it renews the token for one retry,
// or signs the user out and sends them to /login. This module never imports the session.
import ky, { isHTTPError, type Options } from 'ky';
import type { RouteTable } from '../../lib/contracts/route-table';
import { apiClient, type ApiClient, type CallOptions, type Request } from './api-calls';
import { accessToken } from '../state/session-store';

const client = ky.create({
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

/** A failed upload sent through XHR, shaped like ky's HTTPError where errorMessage/httpStatus read it. */
class UploadHttpError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
  ) {
    super(`Upload failed with status ${status}`);
    this.name = 'UploadHttpError';
  }
}

/**
 * fetch cannot report upload progress over HTTP/1.1 (streamed request bodies need HTTP/2 in
 * Chromium), so uploads that want progress go through XMLHttpRequest, with the same token.
 */
function xhrUpload(
  url: string,
  body: FormData,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.responseType = 'json';
    xhr.timeout = 60_000;
    const token = accessToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(xhr.response);
      } else reject(new UploadHttpError(xhr.status, xhr.response));
    };
    xhr.onerror = () => reject(new TypeError('Network error'));
    xhr.ontimeout = () => reject(Object.assign(new Error('Upload timed out'), { name: 'TimeoutError' }));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

const statusOf = (error: unknown): number | undefined =>
  isHTTPError(error) ? error.response.status : error instanceof UploadHttpError ? error.status : undefined;

/** What the session does with a refused token: renew it (true: send the call again) or end the session. */
export interface UnauthorizedHandler {
  renew(): Promise<boolean>;
  expire(): Promise<void>;
}

let unauthorized: UnauthorizedHandler | null = null;

/** Set by client/state/session.ts; until it is loaded a 401 reaches the caller as it is. */
export function onUnauthorized(handler: UnauthorizedHandler) {
  unauthorized = handler;
}

async function withRenewal<T>(send: () => Promise<T>, renewable: boolean): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const handler = unauthorized;
    if (statusOf(error) !== 401 || !renewable || !handler) throw error;
    if (await handler.renew()) {
      try {
        return await send();
      } catch (retryError) {
        if (statusOf(retryError) !== 401) throw retryError;
      }
    }
    await handler.expire();
    throw error;
  }
}

/** A file the API serves as an attachment: its bytes and the name its Content-Disposition gives. */
async function download(response: Response, fallbackName: string) {
  const disposition = response.headers.get('content-disposition')?.slice(0, 300) ?? '';
  const name = /filename="([^"/\\]{1,200})"/.exec(disposition)?.[1] ?? fallbackName;
  return { blob: await response.blob(), name };
}

/** One call through ky: JSON (or a CSV, a form) out; JSON, or a file, back. */
function send(
  { method, url, body, file }: Request,
  { onProgress, fileName, ...options }: CallOptions,
): Promise<unknown> {
  // A call that brings its own authorization (the sign-in exchange) is not the session's to renew.
  const renewable = !options.headers;
  if (body instanceof FormData && onProgress)
    return withRenewal(() => xhrUpload(url, body, onProgress, options.signal), renewable);
  const payload: Options =
    body === undefined
      ? {}
      : body instanceof FormData
        ? { body, timeout: 60_000 }
        : typeof body === 'string' || body instanceof Blob
          ? { body: new Blob([body], { type: 'text/csv' }), timeout: 120_000 }
          : { json: body };
  return withRenewal(async () => {
    const response = await client(url, { method, ...payload, ...(file ? { timeout: 120_000 } : {}), ...options });
    if (file) return download(response, fileName ?? url.slice(url.lastIndexOf('/') + 1));
    return response.status === 204 ? undefined : response.json();
  }, renewable);
}

/** Every call's method and path, written by the build from the contracts (astro.config.mjs). */
declare const __API_ROUTES__: RouteTable;

export const api = apiClient<ApiClient>(send, __API_ROUTES__);

export const enc = encodeURIComponent;

/** The server's message for a failed call, for toasts and form errors. */
export function errorMessage(error: unknown, fallback = 'something went wrong'): string {
  if (isHTTPError(error) || error instanceof UploadHttpError) {
    const data = error.data as { error?: { message?: string } } | null | undefined;
    return data?.error?.message ?? fallback;
  }
  if (error instanceof Error && error.name === 'TimeoutError')
    return 'The server took too long to answer. Please try again.';
  return fallback;
}

/** The per-field messages of a failed call (the API's `error.fields`), if any. */
export function serverFieldErrors(error: unknown): Record<string, string> | undefined {
  if (!isHTTPError(error) && !(error instanceof UploadHttpError)) return undefined;
  return (error.data as { error?: { fields?: Record<string, string> } } | null | undefined)?.error?.fields;
}

export function httpStatus(error: unknown): number | undefined {
  return statusOf(error);
}
