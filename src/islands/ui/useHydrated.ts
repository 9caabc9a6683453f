import { useEffect, useState } from 'react';

/**
 * False in the prebuilt HTML and until the island hydrates. Forms disable their fields until then,
 * so nothing typed before the JavaScript arrives is lost or submitted half-wired.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
