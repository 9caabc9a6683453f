// React's production build for the pages this server renders, whatever NODE_ENV says. Here NODE_ENV picks
// the store's own mode (sandbox payments and the auth emulator unless it is 'production'), but React reads
// it to choose between its builds, and its development build renders every island (the purchase form, the
// reviews) with owner stacks and checks that cost CPU on each render and memory for good. A site build
// imports React by its bare names, and Node loads a module once per name: importing them here first, under
// 'production', makes those the builds every later import gets.
import { memoise } from '../caching/cache.ts';

/** The modules a site build's server renders with (`@astrojs/react` and the islands). */
export const REACT_MODULES = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/server'];

/**
 * Loads React's production builds, once per process: a later build (a publish on a running server) gets the
 * same modules from the cache, and NODE_ENV is never changed while requests are being served. Call before
 * the first site build is imported.
 */
export const preferReactProduction = memoise(load);

async function load(): Promise<void> {
  const mode = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    for (const id of REACT_MODULES) await import(id);
  } finally {
    if (mode === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = mode;
  }
}
