// The public reads of the light pages (a card's Add to cart, the login page's tool name), typed like
// client/infra/api.ts but sent with plain fetch: those pages load no HTTP library and no session.
import type { RouteTable } from '../../lib/contracts/route-table';
import { apiClient, type PublicApi } from './api-calls';

/** The public reads' methods and paths, written by the build from the contracts (astro.config.mjs). */
declare const __API_PUBLIC_READS__: RouteTable;

export const publicApi = apiClient<PublicApi>(async ({ method, url }, { signal, cache }) => {
  const response = await fetch(url, { method, signal, cache });
  if (!response.ok) throw new Error(`${method.toUpperCase()} ${url} answered ${response.status}`);
  return response.json();
}, __API_PUBLIC_READS__);
