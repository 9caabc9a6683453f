// The catalogue's sort and "in stock" filter, in the browser over the cards of the page: no request
// per change. The choice is kept in the URL (?sort=…&stock=1) and carried by the page links, so
// paging keeps the view and a shared link opens it. Without JavaScript the controls stay hidden and
// the page lists its tools newest first.
import { compareBy, isSortKey, type SortFields, type SortKey } from '../../lib/catalogue';

const form = document.querySelector<HTMLFormElement>('[data-catalogue-controls]');
const list = document.querySelector<HTMLUListElement>('[data-catalogue-list]');
const status = document.querySelector<HTMLElement>('[data-catalogue-status]');
const empty = document.querySelector<HTMLElement>('[data-catalogue-empty]');

if (form && list) {
  const sortSelect = form.elements.namedItem('sort') as HTMLSelectElement;
  const stockBox = form.elements.namedItem('stock') as HTMLInputElement;
  const items = [...list.children] as HTMLLIElement[];
  const fields = new Map<HTMLLIElement, SortFields>(
    items.map((li) => [
      li,
      { order: Number(li.dataset.order), priceCents: Number(li.dataset.price), name: li.dataset.name ?? '' },
    ]),
  );

  const apply = (announce: boolean) => {
    const sort: SortKey = isSortKey(sortSelect.value) ? sortSelect.value : 'newest';
    const onlyInStock = stockBox.checked;
    const compare = compareBy(sort);
    const ordered = [...items].sort((a, b) => compare(fields.get(a)!, fields.get(b)!));
    let visible = 0;
    for (const li of ordered) {
      const hide = onlyInStock && li.dataset.inStock !== '1';
      li.hidden = hide;
      if (!hide) visible++;
    }
    list.append(...ordered);
    empty?.classList.toggle('hidden', visible > 0);

    const query = new URLSearchParams();
    if (sort !== 'newest') query.set('sort', sort);
    if (onlyInStock) query.set('stock', '1');
    const search = query.size ? `?${query}` : '';
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-keep-view]')) {
      link.dataset.path ??= link.getAttribute('href')!;
      link.setAttribute('href', `${link.dataset.path}${search}`);
    }
    if (announce && status) {
      const label = sortSelect.selectedOptions[0]?.textContent ?? '';
      status.textContent = `${visible} of ${items.length} tools on this page, sorted by ${label.toLowerCase()}${onlyInStock ? ', in stock only' : ''}.`;
    }
  };

  const params = new URLSearchParams(location.search);
  const initial = params.get('sort');
  if (isSortKey(initial)) sortSelect.value = initial;
  stockBox.checked = params.get('stock') === '1';
  form.hidden = false;
  form.addEventListener('change', () => apply(true));
  form.addEventListener('submit', (e) => e.preventDefault());
  if (initial || stockBox.checked) apply(false);
}
