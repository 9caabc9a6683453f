// What the outer server (src/server/main.ts, outside the Astro bundle) may ask of the API bundle
// in the same process, shared through a global symbol instead of a second database handle.
type Closer = () => Promise<void>;

/** A public read as the API answered it, for main.ts to answer again from memory (public-reads.ts). */
export interface PublicAnswer {
  body: string;
  etag: string;
  cacheControl: string;
}

export interface ApiEnv {
  clientAddress?: string;
  /** Given by main.ts on reads it may answer again; the API calls it with each public answer. */
  keep?: (answer: PublicAnswer) => void;
}

interface Runtime {
  closers: Closer[];
  /** Ids of tools that exist now; undefined until the catalogue is loaded. */
  toolIds?: Set<string>;
  /** The API (Hono's fetch) once the bundle has built it: main.ts sends public reads straight to it. */
  api?: (request: Request, env: ApiEnv) => Response | Promise<Response>;
  /** Bumped by every write to data that public reads show (catalogue, stock, reviews). */
  publicVersion: number;
  onClose(fn: Closer): void;
  close(): Promise<void>;
}

const KEY = Symbol.for('ironcrest.runtime');
const g = globalThis as unknown as Record<symbol, Runtime | undefined>;

export const runtime: Runtime = (g[KEY] ??= {
  closers: [],
  publicVersion: 0,
  onClose(fn) {
    this.closers.push(fn);
  },
  async close() {
    const closers = this.closers.splice(0);
    for (const fn of closers.reverse()) await fn();
  },
});

/** Called by every write that changes what a public read answers: copies kept in memory are dropped. */
export function publicDataChanged(): void {
  runtime.publicVersion++;
}
