// The public reads of the light pages (a card's Add to cart, the login page's tool name), typed like
// client/api.ts but sent with plain fetch: those pages load no HTTP library and no session.
import { apiClient } from './api-calls';

export const publicApi = apiClient(async ({ method, url }, { signal, cache }) => {
  const response = await fetch(url, { method, signal, cache });
  if (!response.ok) throw new Error(`${method.toUpperCase()} ${url} answered ${response.status}`);
  return response.json();
});
