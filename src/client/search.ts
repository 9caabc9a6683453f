// The header search, loaded on first use by search-trigger.ts: fetches the live index once, matches
// as you type (src/lib/search.ts) and follows the WAI-ARIA combobox pattern: arrows move the active
// option (aria-activedescendant), Enter opens it, Escape closes the list, then clears the box.
// As a URL, not an import: Astro would inline an imported sheet into every page.
import popupStyles from './search.css?url';
import { SEARCH_INDEX_PATH, searchTools, type SearchEntry, type SearchIndex } from '../lib/search';

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
  let index: SearchIndex | undefined;
  let failed = false;
  let results: SearchEntry[] = [];
  let active = -1;

  const loaded = fetch(SEARCH_INDEX_PATH)
    .then((r) => (r.ok ? (r.json() as Promise<SearchIndex>) : Promise.reject(new Error(String(r.status)))))
    .then((i) => (index = i))
    .catch(() => (failed = true));

  const hrefOf = (entry: SearchEntry) => `/tools/${entry[0]}`;

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

  function render() {
    const query = input.value.trim();
    if (!query) {
      results = [];
      listbox.replaceChildren();
      status.textContent = '';
      return setOpen(false);
    }
    if (!index) {
      results = [];
      listbox.replaceChildren();
      empty.textContent = failed ? 'Search is not available right now. Please try again later.' : 'Loading…';
      empty.hidden = false;
      return setOpen(true);
    }
    results = searchTools(index, query);
    active = -1;
    input.removeAttribute('aria-activedescendant');
    listbox.replaceChildren(
      ...results.map((entry, i) => {
        const li = document.createElement('li');
        li.id = `site-search-option-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        li.dataset.href = hrefOf(entry);
        const name = document.createElement('b');
        name.textContent = entry[1];
        const excerpt = document.createElement('span');
        excerpt.textContent = entry[2];
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

  input.addEventListener('input', render);
  input.addEventListener('focus', () => {
    if (input.value.trim()) render();
  });
  input.addEventListener('keydown', (e) => {
    const open = !popup.hidden;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) render();
      if (!results.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 && step < 0 ? results.length - 1 : (active + step + results.length) % results.length);
    } else if (e.key === 'Enter') {
      const entry = results[active];
      if (open && entry) {
        e.preventDefault();
        location.assign(hrefOf(entry));
      }
    } else if (e.key === 'Escape') {
      if (open) setOpen(false);
      else input.value = '';
    }
  });
  listbox.addEventListener('mousedown', (e) => e.preventDefault()); // keeps focus in the box
  listbox.addEventListener('click', (e) => {
    const option = (e.target as HTMLElement).closest<HTMLElement>('[role="option"]');
    if (option?.dataset.href) location.assign(option.dataset.href);
  });
  input.addEventListener('blur', () => setOpen(false));
  void loaded.then(() => {
    if (document.activeElement === input && input.value.trim()) render();
  });
  if (input.value.trim()) render();
}
