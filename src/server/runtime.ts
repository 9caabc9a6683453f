// What the outer server (src/server/main.ts, outside the Astro bundle) may ask of the API bundle
// in the same process, shared through a global symbol instead of a second database handle.
type Closer = () => Promise<void>;

interface Runtime {
  closers: Closer[];
  /** Ids of tools that exist now; undefined until the catalogue is loaded. */
  toolIds?: Set<string>;
  /** The API (Hono's fetch) once the bundle has built it: main.ts sends public reads straight to it. */
  api?: (request: Request, env: { clientAddress?: string }) => Response | Promise<Response>;
  onClose(fn: Closer): void;
  close(): Promise<void>;
}

const KEY = Symbol.for('ironcrest.runtime');
const g = globalThis as unknown as Record<symbol, Runtime | undefined>;

export const runtime: Runtime = (g[KEY] ??= {
  closers: [],
  onClose(fn) {
    this.closers.push(fn);
  },
  async close() {
    const closers = this.closers.splice(0);
    for (const fn of closers.reverse()) await fn();
  },
});
