// A browser's localStorage for unit tests of client modules, a Map behind it, and a `window` to listen on:
// client code asks `typeof window` whether it runs in a browser (Node 26 has a localStorage of its own).
export function fakeLocalStorage(): Map<string, string> {
  const storage = new Map<string, string>();
  Object.assign(globalThis, {
    window: new EventTarget(),
    localStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    },
  });
  return storage;
}
