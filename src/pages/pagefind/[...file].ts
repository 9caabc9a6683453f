// The header search's Pagefind files, built live from the catalogue by src/server/host/search-index.ts and
// kept by the store (rebuilt on every tool change announced on the bus; the
// build's copy in dist/client/pagefind is served only while the store is still opening). The search box
// loads them only when a shopper starts a search.
import type { APIRoute } from 'astro';
import { searchFileResponse } from '../../server/host/search-index';

export const prerender = false;

export const GET: APIRoute = async ({ locals, params, request }) => {
  try {
    return searchFileResponse(await locals.runtime!.search.find(params.file ?? ''), request);
  } catch {
    // Pagefind could not build a first index (logged): the search box says search is not available.
    return new Response('Search is not available right now.', { status: 503, headers: { 'Retry-After': '5' } });
  }
};
