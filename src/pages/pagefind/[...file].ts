// The header search's Pagefind files, built live from the catalogue by src/server/search-index.ts (the
// build's copy in dist/client/pagefind is served only while the store is still opening). The search box
// loads them only when a shopper starts a search.
import type { APIRoute } from 'astro';
import { liveSearchIndex, searchFileResponse } from '../../server/search-index';
import type { Store } from '../../server/store';

export const prerender = false;

const indexes = new WeakMap<Store, ReturnType<typeof liveSearchIndex>>();

export const GET: APIRoute = async ({ locals, params, request }) => {
  const store = locals.store!;
  let find = indexes.get(store);
  if (!find) {
    find = liveSearchIndex(() => store.tools.list());
    indexes.set(store, find);
  }
  try {
    return searchFileResponse(await find(params.file ?? ''), request);
  } catch {
    // Pagefind could not build a first index (logged): the search box says search is not available.
    return new Response('Search is not available right now.', { status: 503, headers: { 'Retry-After': '5' } });
  }
};
