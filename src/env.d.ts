/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The store (API, services, database), given by the outer server (src/server/main.ts) or, under
     * `astro dev`, by src/middleware.ts. Undefined while prerendering: build-time data comes from build-data.ts. */
    store?: import('./server/store.ts').Store;
  }
}
