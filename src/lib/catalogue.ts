// The browsable catalogue (/tools, /tools/page/N): paging and the client-side sort and filter.
import type { Tool } from './entities.ts';

export const CATALOGUE_PAGE_SIZE = 24;

export const catalogueHref = (page: number): string => (page <= 1 ? '/tools' : `/tools/page/${page}`);

export const pageCount = (toolCount: number): number => Math.max(1, Math.ceil(toolCount / CATALOGUE_PAGE_SIZE));

/** The tools of one page (1-based), or undefined when the page does not exist. */
export function catalogueSlice(tools: readonly Tool[], page: number): Tool[] | undefined {
  if (!Number.isInteger(page) || page < 1 || page > pageCount(tools.length)) return undefined;
  return tools.slice((page - 1) * CATALOGUE_PAGE_SIZE, page * CATALOGUE_PAGE_SIZE);
}

/** Orderable as the tool page's form would allow: at least the minimum order is available. */
export const inStock = (tool: Pick<Tool, 'availableQuantity' | 'minimumOrderQuantity'>): boolean =>
  tool.availableQuantity > 0 && tool.availableQuantity >= tool.minimumOrderQuantity;

export const SORTS = [
  { value: 'newest', label: 'Newest' },
  { value: 'price-asc', label: 'Price: low to high' },
  { value: 'price-desc', label: 'Price: high to low' },
  { value: 'name', label: 'Name' },
] as const;
export type SortKey = (typeof SORTS)[number]['value'];

/** What a card carries for sorting in the browser: catalogue position (newest first), price, name. */
export interface SortFields {
  order: number;
  priceCents: number;
  name: string;
}

/** Made on first use (the browser's name sort): a server that loads this module then maps no ICU data. */
let byName: Intl.Collator | undefined;

export function compareBy(sort: SortKey): (a: SortFields, b: SortFields) => number {
  switch (sort) {
    case 'price-asc':
      return (a, b) => a.priceCents - b.priceCents || a.order - b.order;
    case 'price-desc':
      return (a, b) => b.priceCents - a.priceCents || a.order - b.order;
    case 'name':
      byName ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true });
      return (a, b) => byName!.compare(a.name, b.name) || a.order - b.order;
    default:
      return (a, b) => a.order - b.order;
  }
}

export const isSortKey = (value: unknown): value is SortKey => SORTS.some((s) => s.value === value);

/** Catalogue pages render live; a browser may reuse one this long (well inside the 60 s freshness window). */
export const CATALOGUE_CACHE_CONTROL = 'public, max-age=15';
