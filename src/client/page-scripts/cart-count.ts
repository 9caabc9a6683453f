// The header's cart count on every page: plain script over the cart store, started when the browser is
// idle (the count is not needed for the first paint).
import { $cartCount } from '../state/cart';

function start() {
  $cartCount.subscribe((count) => {
    for (const el of document.querySelectorAll<HTMLElement>('[data-cart-count]')) {
      el.textContent = String(count);
      el.hidden = count === 0;
    }
    for (const link of document.querySelectorAll<HTMLElement>('[data-cart-link]')) {
      link.setAttribute('aria-label', count ? `Cart, ${count} ${count === 1 ? 'unit' : 'units'}` : 'Cart, empty');
    }
  });
}

if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
else setTimeout(start, 200);
