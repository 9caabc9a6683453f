// The header search, loaded on first use by search-trigger.ts: loads Pagefind's search API from the
// server (its index is the live catalogue's: src/server/host/search-index.ts), queries it as you type and
// follows the WAI-ARIA combobox pattern: arrows move the active option (aria-activedescendant), Enter
// opens it, Escape closes the list, then clears the box.
// As a URL, not an import: Astro would inline an imported sheet into every page.
import popupStyles from './search.css?url';
import { MAX_SEARCH_RESULTS, SEARCH_BASE_PATH } from '../../lib/search';

/** The part of Pagefind's browser API used here (pagefind.js ships no types). */
interface Pagefind {
  debouncedSearch(term: string, options?: object, debounceMs?: number): Promise<{ results: PagefindResult[] } | null>;
}
interface PagefindResult {
  data(): Promise<{ url: string; meta: { title?: string; excerpt?: string } }>;
}
interface Match {
  href: string;
  name: string;
  excerpt: string;
}

export function attachSearch(input: HTMLInputElement): void {
  // The popup and its styles are made here, not shipped in every page's HTML.
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = popupStyles;
  document.head.append(sheet);
  const popup = document.createElement('div');
  popup.className = 'search-popup';
  popup.hidden = true;
  const listbox = document.createElement('ul');
  listbox.id = 'site-search-results';
  listbox.setAttribute('role', 'listbox');
  listbox.setAttribute('aria-label', 'Matching tools');
  const empty = document.createElement('p');
  empty.hidden = true;
  popup.append(listbox, empty);
  input.after(popup);
  const status = document.getElementById('site-search-status')!;
  let pagefind: Pagefind | undefined;
  let failed = false;
  let results: Match[] = [];
  let active = -1;
  /** Counts queries, so an answer that arrives after a newer query is dropped. */
  let asked = 0;

  const loaded = (import(/* @vite-ignore */ `${SEARCH_BASE_PATH}pagefind.js`) as Promise<Pagefind>)
    .then((api) => (pagefind = api))
    .catch(() => (failed = true));

  function setOpen(open: boolean) {
    popup.hidden = !open;
    input.setAttribute('aria-expanded', String(open && results.length > 0));
    if (!open) setActive(-1);
  }

  function setActive(next: number) {
    const options = listbox.querySelectorAll<HTMLElement>('[role="option"]');
    options[active]?.setAttribute('aria-selected', 'false');
    active = next;
    const option = options[active];
    if (option) {
      option.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  function showMessage(text: string) {
    results = [];
    listbox.replaceChildren();
    empty.textContent = text;
    empty.hidden = false;
    setOpen(true);
  }

  function show(query: string, matches: Match[]) {
    results = matches;
    active = -1;
    input.removeAttribute('aria-activedescendant');
    listbox.replaceChildren(
      ...results.map((match, i) => {
        const li = document.createElement('li');
        li.id = `site-search-option-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        li.dataset.href = match.href;
        const name = document.createElement('b');
        name.textContent = match.name;
        const excerpt = document.createElement('span');
        excerpt.textContent = match.excerpt;
        li.append(name, excerpt);
        return li;
      }),
    );
    empty.textContent = results.length ? '' : `No tools match “${query}”.`;
    empty.hidden = results.length > 0;
    status.textContent = results.length
      ? `${results.length} ${results.length === 1 ? 'tool' : 'tools'} found. Use the arrow keys to choose.`
      : `No tools match “${query}”.`;
    setOpen(true);
  }

  const unavailable = 'Search is not available right now. Please try again later.';

  async function render() {
    const query = input.value.trim();
    const ask = ++asked;
    if (!query) {
      results = [];
      listbox.replaceChildren();
      status.textContent = '';
      return setOpen(false);
    }
    if (!pagefind) return showMessage(failed ? unavailable : 'Loading…');
    try {
      const found = await pagefind.debouncedSearch(query, {}, 120);
      if (!found || ask !== asked) return; // a newer query took over
      const data = await Promise.all(found.results.slice(0, MAX_SEARCH_RESULTS).map((r) => r.data()));
      if (ask !== asked) return;
      show(
        query,
        data.map((d) => ({ href: d.url, name: d.meta.title ?? d.url, excerpt: d.meta.excerpt ?? '' })),
      );
    } catch {
      if (ask === asked) showMessage(unavailable);
    }
  }

  input.addEventListener('input', () => void render());
  input.addEventListener('focus', () => {
    if (input.value.trim()) void render();
  });
  input.addEventListener('keydown', (e) => {
    const open = !popup.hidden;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      // Reopens the results of the text in the box (closed by Escape).
      if (!open && input.value.trim()) setOpen(true);
      if (!results.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 && step < 0 ? results.length - 1 : (active + step + results.length) % results.length);
    } else if (e.key === 'Enter') {
      const match = results[active];
      if (open && match) {
        e.preventDefault();
        location.assign(match.href);
      }
    } else if (e.key === 'Escape') {
      if (open) setOpen(false);
      else {
        input.value = '';
        void render();
      }
    }
  });
  listbox.addEventListener('mousedown', (e) => e.preventDefault()); // keeps focus in the box
  listbox.addEventListener('click', (e) => {
    const option = (e.target as HTMLElement).closest<HTMLElement>('[role="option"]');
    if (option?.dataset.href) location.assign(option.dataset.href);
  });
  input.addEventListener('blur', () => setOpen(false));
  void loaded.then(() => {
    if (document.activeElement === input && input.value.trim()) void render();
  });
  if (input.value.trim()) void render();
}
