// Each call's method and path, without its schemas: what the browser's client needs at run time. The
// build writes it into the client (astro.config.mjs defines __API_ROUTES__ from apiContracts), so no
// zod schema reaches a page for the client's sake; the client's types come from the contracts themselves.
import type { Method, RouteContract } from './route.ts';

/** A call: its method and path, and 1 when it answers a file (saved by the browser, not read as JSON). */
export type RouteEntry = [Method, string] | [Method, string, 1];
export type RouteTable = Record<string, Record<string, RouteEntry>>;

export function routeTable(contracts: Record<string, Record<string, RouteContract>>): RouteTable {
  return Object.fromEntries(
    Object.entries(contracts).map(([group, calls]) => [
      group,
      Object.fromEntries(
        Object.entries(calls).map(([name, c]) => {
          const file = Object.entries(c.responses).some(([status, answer]) => status.startsWith('2') && answer.file);
          return [name, file ? [c.method, c.path, 1] : [c.method, c.path]];
        }),
      ),
    ]),
  );
}
