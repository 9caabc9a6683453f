// The cart: one store in localStorage, shared by every island and tab. The functions below are the only
// way it changes. A line remembers the name and prices (list price and quantity breaks) the shopper saw,
// so /cart can say when either changed; the order itself is priced by the server.
import { atom, computed } from 'nanostores';

export interface CartLine {
  toolId: string;
  quantity: number;
  /** As the shopper saw it when adding (shown until /cart re-reads the tool). */
  name: string;
  /** Dollars, as seen when adding. */
  price: number;
  /** The quantity prices seen when adding (dollars); absent in carts kept before price breaks. */
  priceBreaks?: { minQuantity: number; price: number }[];
}

/** What a line remembers of the tool, as the shopper saw it. */
export type SeenTool = Pick<CartLine, 'name' | 'price' | 'priceBreaks'>;

const KEY = 'cart';

// No storage in a prerender on the server (`window`, not `localStorage`: Node 26's own warns when read).
function readStored(): CartLine[] {
  if (typeof window === 'undefined') return [];
  try {
    const lines = JSON.parse(localStorage.getItem(KEY) ?? '[]') as CartLine[];
    return Array.isArray(lines)
      ? lines.filter((l) => typeof l?.toolId === 'string' && Number.isInteger(l.quantity) && l.quantity > 0)
      : [];
  } catch {
    return [];
  }
}

export const $cart = atom<CartLine[]>(readStored());
/** Units in the cart (the header's count). */
export const $cartCount = computed($cart, (lines) => lines.reduce((sum, l) => sum + l.quantity, 0));

function save(lines: CartLine[]) {
  if (lines.length) localStorage.setItem(KEY, JSON.stringify(lines));
  else localStorage.removeItem(KEY);
  $cart.set(lines);
}

export const cartQuantity = (toolId: string): number => $cart.get().find((l) => l.toolId === toolId)?.quantity ?? 0;

/** Adds units of a tool (to its line if it has one). */
export function addCartItem(toolId: string, quantity: number, seen: SeenTool = { name: '', price: 0 }) {
  const lines = $cart.get();
  const line = lines.find((l) => l.toolId === toolId);
  save(
    line
      ? lines.map((l) =>
          l === line
            ? {
                ...l,
                quantity: l.quantity + quantity,
                name: seen.name || l.name,
                price: seen.price || l.price,
                priceBreaks: seen.priceBreaks ?? l.priceBreaks,
              }
            : l,
        )
      : [...lines, { toolId, quantity, ...seen }],
  );
}

export function setQuantity(toolId: string, quantity: number) {
  save($cart.get().map((l) => (l.toolId === toolId ? { ...l, quantity } : l)));
}

/** Records what the server says the tool is now (after the shopper was shown the change). */
export function acceptCurrent(toolId: string, current: SeenTool) {
  save($cart.get().map((l) => (l.toolId === toolId ? { ...l, ...current } : l)));
}

export function removeCartItem(toolId: string) {
  save($cart.get().filter((l) => l.toolId !== toolId));
}

export function clearCart() {
  save([]);
}

// Another tab changed the cart: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === KEY || event.key === null) $cart.set(readStored());
  });
}
