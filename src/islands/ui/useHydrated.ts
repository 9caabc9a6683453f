import { useSyncExternalStore } from 'react';

const unchanging = () => () => {};

/**
 * A value only the browser knows (the URL, storage): `prebuilt` in the prebuilt HTML and while the
 * island hydrates (so the first render matches that HTML), the browser's value from then on.
 */
export function useBrowserValue<T>(read: () => T, prebuilt: T): T {
  return useSyncExternalStore(unchanging, read, () => prebuilt);
}

/**
 * False in the prebuilt HTML and until the island hydrates. Forms disable their fields until then,
 * so nothing typed before the JavaScript arrives is lost or submitted half-wired.
 */
export function useHydrated(): boolean {
  return useBrowserValue(() => true, false);
}
