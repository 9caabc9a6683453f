// Each call's method and path, without its schemas: what the browser's client needs at run time. The
// build writes it into the client (astro.config.mjs defines __API_ROUTES__ from apiContracts), so no
// zod schema reaches a page for the client's sake; the client's types come from the contracts themselves.
import type { Method, RouteContract } from './route.ts';

/** A call: its method and path, and 1 when it answers a file (saved by the browser, not read as JSON). */
export type RouteEntry = [Method, string] | [Method, string, 1];
export type RouteTable = Record<string, Record<string, RouteEntry>>;

type Contracts = Record<string, Record<string, RouteContract>>;

/** Every call (`only`: those it keeps), grouped as the contracts are. */
export function routeTable(contracts: Contracts, only: (c: RouteContract) => boolean = () => true): RouteTable {
  return Object.fromEntries(
    Object.entries(contracts).flatMap(([group, calls]) => {
      const kept = Object.entries(calls).filter(([, c]) => only(c));
      if (!kept.length) return [];
      const entries = kept.map(([name, c]) => {
        const file = Object.entries(c.responses).some(([status, answer]) => status.startsWith('2') && answer.file);
        return [name, file ? [c.method, c.path, 1] : [c.method, c.path]];
      });
      return [[group, Object.fromEntries(entries)]];
    }),
  );
}

/** Whether a call is a public read answered with JSON: what the light pages' client may ask (client/infra/public-api.ts). */
export const isPublicJsonRead = (c: RouteContract) =>
  Boolean(c.cached) && c.method === 'get' && Object.values(c.responses).every((a) => !a.type && !a.file);
