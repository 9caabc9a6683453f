// The cart: three tools added from their pages (the spec's quantity rules), one order, one payment,
// and each tool's stock down by its line; two carts racing for the last units of a tool.
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { apiAs, login, liveTools } from './fixtures';
import { newAccount } from './dashboard-fixtures';

const money = (dollars: number) => dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const stockOf = async (page: Page, id: string) =>
  (
    (await (await page.request.get(`/api/tools/${id}`, { headers: { 'cache-control': 'no-cache' } })).json()) as {
      availableQuantity: number;
    }
  ).availableQuantity;

test('three tools in the cart (one below its minimum first), one order, paid once; each stock drops by its line', async ({
  page,
}) => {
  const shopper = await newAccount('Cart Shopper', 'cart');
  await login(page, shopper);
  const tools = (await liveTools(page.request))
    .filter((t) => t.availableQuantity >= t.minimumOrderQuantity + 2 && t.minimumOrderQuantity > 1)
    .slice(0, 3);
  expect(tools).toHaveLength(3);
  const before = await Promise.all(tools.map((t) => stockOf(page, t._id)));
  const quantities = tools.map((t, i) => t.minimumOrderQuantity + i);

  for (const [i, tool] of tools.entries()) {
    await page.goto(`/tools/${tool._id}`);
    // One quantity for both actions of the tool page: Purchase and Add to cart.
    const units = page.getByLabel('Quantity', { exact: true });
    await expect(page.getByLabel(/quantity/i)).toHaveCount(1);
    if (i === 0) {
      await units.fill(String(tool.minimumOrderQuantity - 1));
      await units.blur();
      await expect(page.getByText(messages.quantityBelowMinimum)).toBeVisible();
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect(page.getByText(messages.cartAdded)).toBeHidden();
    }
    await units.fill(String(quantities[i]));
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByText(messages.cartAdded)).toBeVisible();
  }
  const units = quantities.reduce((a, b) => a + b, 0);
  await expect(page.locator('header [data-cart-count]').first()).toHaveText(String(units));

  await page.goto('/cart');
  const lines = page.getByTestId('cart-line');
  await expect(lines).toHaveCount(3);
  const totalCents = tools.reduce((sum, t, i) => sum + Math.round(t.price * 100) * quantities[i], 0);
  await expect(page.getByTestId('cart-total')).toHaveText(money(totalCents / 100));
  await page.getByLabel('Address').fill('House 3, Road 9, Gulshan, Dhaka');
  await page.getByLabel('Phone').fill('01712345678');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('status').filter({ hasText: messages.orderPlaced })).toBeVisible();
  await expect(page.getByTestId('order-line')).toHaveCount(3);
  await expect(page.getByTestId('placed-total')).toHaveText(money(totalCents / 100));
  // The cart is empty now, in the header too.
  await expect(page.locator('header [data-cart-count]').first()).toBeHidden();

  await page.getByRole('link', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\//);
  await expect(page.getByTestId('order-line')).toHaveCount(3);
  await expect(page.getByTestId('payment-total')).toHaveText(`Total = ${money(totalCents / 100)}`);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText(messages.paymentSuccess)).toBeVisible();

  for (const [i, tool] of tools.entries()) expect(await stockOf(page, tool._id)).toBe(before[i] - quantities[i]);
  await page.goto('/dashboard/myorders');
  const row = page.getByRole('row').filter({ hasText: '3 tools' });
  await expect(row.getByText('Paid', { exact: true })).toBeVisible();
  for (const tool of tools) await expect(row.getByText(tool.name)).toBeVisible();
});

test('two carts racing for the last units of one tool: one order gets them whole, the other a clear 422 and nothing of its other lines', async ({
  browser,
}) => {
  const [a, b] = await Promise.all([browser.newPage(), browser.newPage()]);
  await login(a, await newAccount('Racer A', 'race-a'));
  await login(b, await newAccount('Racer B', 'race-b'));
  const [contested, other] = (await liveTools(a.request)).filter(
    (t) => t.availableQuantity >= 2 * t.minimumOrderQuantity + 1,
  );
  // Leave exactly one minimum order of the contested tool: place the rest from a third account's view (A's) and free it after.
  const spare = (await stockOf(a, contested._id)) - contested.minimumOrderQuantity;
  const hold =
    spare >= contested.minimumOrderQuantity
      ? await apiAs(a, 'POST', 'booking', {
          toolId: contested._id,
          quantity: spare,
          address: 'Hold 1',
          phone: '01712345678',
        })
      : undefined;
  if (hold) expect(hold.status).toBe(201);
  const otherBefore = await stockOf(a, other._id);
  const cart = (lines: { toolId: string; quantity: number }[]) => ({
    items: lines,
    address: 'Race Street 1',
    phone: '01812345678',
  });
  const [first, second] = await Promise.all([
    apiAs(a, 'POST', 'orders', cart([{ toolId: contested._id, quantity: contested.minimumOrderQuantity }])),
    apiAs(
      b,
      'POST',
      'orders',
      cart([
        { toolId: other._id, quantity: other.minimumOrderQuantity },
        { toolId: contested._id, quantity: contested.minimumOrderQuantity },
      ]),
    ),
  ]);
  expect([first.status, second.status].sort()).toEqual([201, 422]);
  const loser = first.status === 422 ? first : second;
  expect(loser.data.error.message).toBe(messages.cartLineRefused(contested.name, messages.quantityAboveAvailable));
  expect(await stockOf(a, contested._id)).toBe(0);
  expect(await stockOf(a, other._id)).toBe(
    second.status === 201 ? otherBefore - other.minimumOrderQuantity : otherBefore,
  );
  // Give the units back for the other tests.
  for (const [page, res] of [
    [a, hold],
    [a, first],
    [b, second],
  ] as const) {
    if (res?.status === 201)
      expect((await apiAs(page, 'DELETE', `booking/dlt/${res.data.insertedId}`)).status).toBe(200);
  }
});

test('a catalogue card adds its tool’s minimum to the cart, and the header counts it in every tab', async ({
  page,
  context,
}) => {
  await page.goto('/tools');
  const [tool] = (await liveTools(page.request)).filter((t) => t.availableQuantity >= t.minimumOrderQuantity);
  const other = await context.newPage();
  await other.goto('/blogs');
  await page
    .getByRole('button', { name: `Add to cart: ${tool.name}` })
    .first()
    .click();
  await expect(page.getByText(messages.cartAdded)).toBeVisible();
  await expect(page.locator('header [data-cart-count]').first()).toHaveText(String(tool.minimumOrderQuantity));
  await expect(other.locator('header [data-cart-count]').first()).toHaveText(String(tool.minimumOrderQuantity));
});
