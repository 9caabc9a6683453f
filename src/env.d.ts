/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The runtime (API, services, database), given by the outer server (src/server/main.ts) or, under
     * `astro dev`, by src/middleware.ts. Undefined while prerendering. */
    runtime?: import('./server/runtime.ts').Runtime;
    /** Set by a page that shows live data: what it shows, whose changes make it stale (server/host/live-pages.ts). */
    live?: import('./server/caching/changes.ts').Shows;
    /** Given by the outer server: takes such a page, keeps it, and answers with it. */
    livePage?: import('./server/host/live-pages.ts').LivePageHandoff;
  }
}
