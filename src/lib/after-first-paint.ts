// The moment a page's own work may start without competing with its first paint: the header's scripts
// (written inline by src/server/host/page-scripts.ts, from this function's source), the home page's
// server island and a signed-in tool page's purchase form (src/client/directives/signed-in.ts).
//
// A frame's requestAnimationFrame runs before that frame is painted, and a task queued from it runs once
// the main thread hands the frame over, still before the screen shows it (Chromium without a GPU took
// 15-20 ms more): what started there was often fetched before the first paint, and Lighthouse's model of
// a slow phone counted it as a round trip before that paint (home LCP ~1,050 ms instead of ~905). The
// paint timing entry comes once the paint is shown; a browser without it waits a frame, as before.
//
// Its source is inlined with its whitespace folded: it may use only what every page has (no imports, no
// closures), and no string in it may depend on its spaces.

/** Calls `fn` once the page's first contentful paint has been shown. */
export function afterFirstPaint(fn: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(fn));
    return;
  }
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(fn);
  }).observe({ type: 'paint', buffered: true });
}
