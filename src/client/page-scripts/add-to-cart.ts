// The "Add to cart" buttons of a page of cards (AddToCart.astro): the tool's minimum, with the spec's
// quantity rules (and the trade's: whole packs, a quote above its threshold) against the live tool,
// counting what the cart already holds of it. Plain script over the cart store, no React.
import type { Tool } from '../../lib/entities';
import { messages } from '../../lib/messages';
import { quantityError } from '../../lib/rules';
import { addCartItem, cartQuantity } from '../state/cart';
import { publicApi } from '../infra/public-api';

type LiveTool = Pick<
  Tool,
  'name' | 'price' | 'minimumOrderQuantity' | 'availableQuantity' | 'priceBreaks' | 'packSize' | 'quoteAbove'
>;

const lines = new WeakMap<HTMLElement, { error: HTMLElement; status: HTMLElement }>();

/** A button gets its two message lines only when it first needs them. */
function messageLines(control: HTMLElement): { error: HTMLElement; status: HTMLElement } {
  const known = lines.get(control);
  if (known) return known;
  const made = {
    error: Object.assign(document.createElement('p'), { className: 'field-error', hidden: true }),
    status: Object.assign(document.createElement('p'), { className: 'text-sm text-success' }),
  };
  made.error.setAttribute('role', 'alert');
  made.status.setAttribute('role', 'status');
  control.after(made.error, made.status);
  lines.set(control, made);
  return made;
}

function wire(control: HTMLElement) {
  const data = control.dataset;
  const toolId = data.toolId!;
  let live: Promise<void> | undefined;
  let priceBreaks: LiveTool['priceBreaks'] | undefined;

  // The page may be older than the stock: read the tool once, when the shopper first reaches for it.
  const refresh = () =>
    (live ??= publicApi.tools
      .get({ params: { id: toolId } })
      .then((tool: LiveTool) => {
        data.name = tool.name;
        data.price = String(tool.price);
        data.min = String(tool.minimumOrderQuantity);
        data.available = String(tool.availableQuantity);
        data.pack = String(tool.packSize);
        if (tool.quoteAbove === null) delete data.quoteAbove;
        else data.quoteAbove = String(tool.quoteAbove);
        priceBreaks = tool.priceBreaks;
      })
      .catch(() => {}));

  const wanted = () => Number(data.min);
  const check = () =>
    quantityError(cartQuantity(toolId) + wanted(), {
      minimumOrderQuantity: Number(data.min),
      availableQuantity: Number(data.available),
      packSize: Number(data.pack ?? 1) || 1,
      quoteAbove: data.quoteAbove ? Number(data.quoteAbove) : null,
    }) ?? (Number.isInteger(wanted()) && wanted() > 0 ? null : messages.quantityBelowMinimum);
  const show = (message: string | null) => {
    const { error } = messageLines(control);
    error.textContent = message ?? '';
    error.hidden = !message;
  };

  async function add(event: Event) {
    event.preventDefault();
    await refresh();
    const problem = check();
    show(problem);
    const { status } = messageLines(control);
    status.textContent = '';
    if (problem) return;
    addCartItem(toolId, wanted(), { name: data.name ?? '', price: Number(data.price ?? 0), priceBreaks });
    const link = Object.assign(document.createElement('a'), {
      href: '/cart',
      textContent: 'View cart',
      className: 'font-semibold underline',
    });
    status.append(`${messages.cartAdded}. `, link);
  }

  control.addEventListener('focusin', () => void refresh(), { once: true });
  control.addEventListener('click', add);
  control.removeAttribute('aria-disabled');
}

for (const control of document.querySelectorAll<HTMLElement>('[data-add-to-cart]')) wire(control);
