// The "Add to cart" controls of a page (AddToCart.astro): the spec's quantity rules against the live
// tool, counting what the cart already holds of it. Plain script over the cart store, no React.
import { messages } from '../lib/messages';
import { quantityError } from '../lib/rules';
import { addCartItem, cartQuantity } from './cart';

interface LiveTool {
  name: string;
  price: number;
  minimumOrderQuantity: number;
  availableQuantity: number;
}

/** A card's button gets its two message lines only when it first needs them. */
function messageLines(control: HTMLElement): { error: HTMLElement; status: HTMLElement } {
  const error = control.querySelector<HTMLElement>('[data-cart-error]');
  const status = control.querySelector<HTMLElement>('[data-cart-status]');
  if (error && status) return { error, status };
  const made = {
    error: Object.assign(document.createElement('p'), { className: 'field-error', hidden: true }),
    status: Object.assign(document.createElement('p'), { className: 'text-sm text-success' }),
  };
  made.error.setAttribute('role', 'alert');
  made.status.setAttribute('role', 'status');
  control.after(made.error, made.status);
  return made;
}

function wire(control: HTMLElement) {
  const data = control.dataset;
  const toolId = data.toolId!;
  const input = control.querySelector<HTMLInputElement>('input[name="quantity"]');
  let live: Promise<void> | undefined;

  // The page may be older than the stock: read the tool once, when the shopper first reaches for it.
  const refresh = () =>
    (live ??= fetch(`/api/tools/${toolId}`)
      .then((r) => (r.ok ? (r.json() as Promise<LiveTool>) : undefined))
      .then((tool) => {
        if (!tool) return;
        data.name = tool.name;
        data.price = String(tool.price);
        data.min = String(tool.minimumOrderQuantity);
        data.available = String(tool.availableQuantity);
      })
      .catch(() => {}));

  const wanted = () => (input ? Number(input.value) : Number(data.min));
  const check = () =>
    quantityError(cartQuantity(toolId) + wanted(), { minimumOrderQuantity: Number(data.min), availableQuantity: Number(data.available) }) ??
    (Number.isInteger(wanted()) && wanted() > 0 ? null : messages.quantityBelowMinimum);
  const show = (message: string | null) => {
    const { error } = messageLines(control);
    error.textContent = message ?? '';
    error.hidden = !message;
    input?.setAttribute('aria-invalid', String(Boolean(message)));
    input?.classList.toggle('border-danger', Boolean(message));
  };

  async function add(event: Event) {
    event.preventDefault();
    await refresh();
    const problem = check();
    show(problem);
    const { status } = messageLines(control);
    status.textContent = '';
    if (problem) return;
    addCartItem(toolId, wanted(), { name: data.name ?? '', price: Number(data.price ?? 0) });
    const link = Object.assign(document.createElement('a'), { href: '/cart', textContent: 'View cart', className: 'font-semibold underline' });
    status.append(`${messages.cartAdded}. `, link);
  }

  control.addEventListener('focusin', () => void refresh(), { once: true });
  if (control instanceof HTMLFormElement) control.addEventListener('submit', add);
  else control.addEventListener('click', add);
  input?.addEventListener('blur', async () => {
    await refresh();
    show(check());
  });
  input?.addEventListener('input', () => (messageLines(control).status.textContent = ''));
}

for (const control of document.querySelectorAll<HTMLElement>('[data-add-to-cart]')) wire(control);
