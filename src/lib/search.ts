// Full-text search over the catalogue's names and descriptions, shared by the server (which builds
// the index: src/server/search-index.ts) and the browser (which matches as you type: src/client/search.ts).
// A query matches a tool when every word of it starts a word of the tool's name or description.

/** One tool in the index: id, name, card excerpt, and the words of its name and description. */
export type SearchEntry = [id: string, name: string, excerpt: string, words: string];
export interface SearchIndex {
  tools: SearchEntry[];
}

export const SEARCH_INDEX_PATH = '/search-index.json';
export const MAX_SEARCH_RESULTS = 8;

/** Lower case, accents dropped, split on anything that is not a letter or digit. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export const excerptOf = (description: string): string =>
  description.length > 110 ? `${description.slice(0, 107).trimEnd()}…` : description;

/** The index entry of a tool: its words once each, each preceded by a space (so " ham" finds a word start). */
export function searchEntry(tool: { _id: string; name: string; description: string }): SearchEntry {
  const words = new Set([...searchWords(tool.name), ...searchWords(tool.description)]);
  return [tool._id, tool.name, excerptOf(tool.description), ` ${[...words].join(' ')}`];
}

/**
 * The tools matching a query, best first: a word found in the name counts more than one only in the
 * description; ties keep the catalogue's order (newest first).
 */
export function searchTools(index: SearchIndex, query: string, limit = MAX_SEARCH_RESULTS): SearchEntry[] {
  const terms = searchWords(query).map((w) => ` ${w}`);
  if (!terms.length) return [];
  const scored: { entry: SearchEntry; score: number; at: number }[] = [];
  index.tools.forEach((entry, at) => {
    if (!terms.every((t) => entry[3].includes(t))) return;
    const name = ` ${searchWords(entry[1]).join(' ')}`;
    const score = terms.reduce((sum, t) => sum + (name.includes(t) ? 2 : 1), 0);
    scored.push({ entry, score, at });
  });
  return scored
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .slice(0, limit)
    .map((s) => s.entry);
}
