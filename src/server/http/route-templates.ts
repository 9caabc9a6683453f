// Every API route as a template (/api/booking/:id), from the contracts: a request path's route without
// its ids, for labels that must stay a small fixed set whatever the URLs (metrics.ts).
import { apiContracts } from '../../lib/contracts/api.ts';
import type { RouteContract } from '../../lib/contracts/route.ts';

const segments = (path: string) => path.split('/').slice(1);

/** The templates, each with its matcher, the most literal first (/booking/email/{email} before /booking/{id}/invoice). */
export const API_ROUTE_TEMPLATES: { pattern: RegExp; template: string }[] = [
  ...new Set(
    Object.values(apiContracts).flatMap((group) =>
      Object.values(group as Record<string, RouteContract>).map((c) => c.path),
    ),
  ),
]
  .sort((a, b) => {
    const kinds = (path: string) =>
      segments(path)
        .map((s) => (s.startsWith('{') ? '1' : '0'))
        .join('');
    const [x, y] = [kinds(a), kinds(b)];
    return x < y ? -1 : x > y ? 1 : 0; // not localeCompare: ICU's collation data would stay mapped for good
  })
  .map((path) => ({
    pattern: new RegExp(
      `^/api/${segments(path)
        .map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('/')}$`,
    ),
    template: `/api${path.replace(/\{(\w+)\}/g, ':$1')}`,
  }));

/** The template of an API path (no query, no trailing slash), or undefined for a path no route serves. */
export const routeTemplate = (path: string): string | undefined =>
  API_ROUTE_TEMPLATES.find((r) => r.pattern.test(path))?.template;
