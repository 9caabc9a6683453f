// Client-side navigation inside the dashboard island: the path as a store, changed by navigate().
import { atom } from 'nanostores';

export const $path = atom<string>(typeof location === 'undefined' ? '/' : location.pathname);

export function navigate(href: string) {
  if (href === location.pathname) return;
  history.pushState(null, '', href);
  $path.set(location.pathname);
  window.scrollTo(0, 0);
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => $path.set(location.pathname));
}
