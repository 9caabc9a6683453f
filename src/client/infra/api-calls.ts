// The API as typed functions, api.<group>.<name>(input, options), shaped by the contracts
// (src/lib/contracts/api.ts): the input's `params`, `query` and `body` and the answer are checked at
// compile time. At run time only each call's method and path are here (a table the build writes from
// the same contracts: no schema is bundled). A transport sends the call (client/infra/api.ts: ky with the
// session's token; client/infra/public-api.ts: plain fetch for the public reads of light pages).
import type { ApiContracts } from '../../lib/contracts/api';
import type { Input, Output, RouteContract } from '../../lib/contracts/route';
import type { RouteEntry, RouteTable } from '../../lib/contracts/route-table';

export const API_BASE: string = import.meta.env.PUBLIC_API_BASE ?? '/api';

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent instead of the session's (the sign-in exchange sends the Firebase ID token). */
  headers?: Record<string, string>;
  timeout?: number;
  cache?: RequestCache;
  /** An upload's progress, 0…1 (sent through XHR: fetch cannot report it). */
  onProgress?: (fraction: number) => void;
  /** A downloaded file's name when the answer names none. */
  fileName?: string;
}

/** What a call answers: its JSON, or for a file its bytes and the name its Content-Disposition gives. */
export type Answer<C extends RouteContract> = [Output<C>] extends [Blob] ? { blob: Blob; name: string } : Output<C>;

/** Whether a call can be made without input (nothing in it is required). */
type Optional<C extends RouteContract> = object extends Input<C> ? true : false;

export type ApiCall<C extends RouteContract> = (Optional<C> extends true
  ? (input?: Input<C>, options?: CallOptions) => Promise<Answer<C>>
  : (input: Input<C>, options?: CallOptions) => Promise<Answer<C>>) & {
  /** 'get /tools/{id}': which call this is (the data hooks key their requests by it). */
  readonly route: string;
};

export type ApiClient = {
  [G in keyof ApiContracts]: {
    [N in keyof ApiContracts[G]]: ApiContracts[G][N] extends RouteContract ? ApiCall<ApiContracts[G][N]> : never;
  };
};

/** Whether a call is a public read answered with JSON (`cached` in its contract, route-table.ts's isPublicJsonRead). */
type PublicJsonRead<C> = C extends { cached: true; method: 'get' }
  ? C extends { responses: { 200: { type: string } } }
    ? false
    : true
  : false;
type PublicCalls<G extends keyof ApiContracts> = {
  [N in keyof ApiContracts[G] as PublicJsonRead<ApiContracts[G][N]> extends true ? N : never]: ApiClient[G][N &
    keyof ApiClient[G]];
};
/** The light pages' client (client/infra/public-api.ts): the public reads only. */
export type PublicApi = { [G in keyof ApiContracts as keyof PublicCalls<G> extends never ? never : G]: PublicCalls<G> };

/** A call as a transport sends it: the method, the URL under the API's base, the body, whether a file comes back. */
export interface Request {
  method: 'get' | 'post' | 'put' | 'delete';
  url: string;
  body?: unknown;
  file: boolean;
}
export type Transport = (request: Request, options: CallOptions) => Promise<unknown>;

/** The path with its parameters filled in and the query's defined values, under the API's base. */
export function urlOf(
  path: string,
  input: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {},
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(input.params?.[name] ?? '')),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {}))
    if (value !== undefined && value !== null) query.set(name, String(value));
  const search = query.toString();
  return `${API_BASE.replace(/\/$/, '')}${filled}${search ? `?${search}` : ''}`;
}

/** The typed API over a transport: the calls of `table` (written by the build from the contracts). */
export function apiClient<T extends ApiClient | PublicApi>(send: Transport, table: RouteTable): T {
  const client: Record<string, Record<string, unknown>> = {};
  for (const [group, calls] of Object.entries(table)) {
    client[group] = {};
    for (const [name, [method, path, file]] of Object.entries(calls) as [string, RouteEntry][]) {
      const call = (
        input: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } = {},
        options: CallOptions = {},
      ) => send({ method, url: urlOf(path, input), body: input.body, file: file === 1 }, options);
      client[group][name] = Object.assign(call, { route: `${method} ${path}` });
    }
  }
  return client as T;
}
