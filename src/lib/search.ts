// The header search, shared by the server (which builds and serves the Pagefind index:
// src/server/host/search-index.ts) and the browser (which queries it as you type: src/client/page-scripts/search.ts).

/** Where Pagefind's files are served: its search API is `${SEARCH_BASE_PATH}pagefind.js`. */
export const SEARCH_BASE_PATH = '/pagefind/';
export const MAX_SEARCH_RESULTS = 8;
