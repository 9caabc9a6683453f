// Loads the header search (src/client/page-scripts/search.ts, which then loads Pagefind and its index) on first
// use: focus on the box, or "/" pressed anywhere but in a field. Kept tiny: it ships with every page.
const input = document.querySelector<HTMLInputElement>('#site-search');
if (input) {
  let loading: Promise<unknown> | undefined;
  const load = () => (loading ??= import('./search').then((m) => m.attachSearch(input)));
  input.addEventListener('focus', load, { once: true });
  // This script starts after the first paint: a shopper may be in the box already (what they typed is searched).
  if (document.activeElement === input) void load();
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    e.preventDefault();
    input.focus();
  });
}
