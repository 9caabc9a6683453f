// The header search's index (src/lib/search.ts), built live from the catalogue by
// src/server/search-index.ts; the search box loads it only when a shopper starts a search.
import type { APIRoute } from 'astro';
import { liveSearchIndex, searchIndexResponse } from '../server/search-index';
import type { Store } from '../server/store';

export const prerender = false;

const indexes = new WeakMap<Store, ReturnType<typeof liveSearchIndex>>();

export const GET: APIRoute = async ({ locals, request }) => {
  const store = locals.store!;
  let current = indexes.get(store);
  if (!current) {
    current = liveSearchIndex(() => store.tools.list());
    indexes.set(store, current);
  }
  return searchIndexResponse(await current(), request);
};
