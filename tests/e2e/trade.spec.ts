// The trade as shoppers and admins see it (issue 26): a tool's quantity price table and pack size, the
// purchase form's and the cart's live unit prices, totals and next-break hints, pack-size errors on
// blur, a quote request above the threshold, Edit product, Stock history and the low-stock badge.
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { DEMO_ADMIN, expectNoAxeViolations, login } from './fixtures';
import {
  apiWith,
  demoAdminToken,
  loginHydrated,
  newAccount,
  placeOrder,
  rowWith,
  toastSaying,
  type Account,
} from './dashboard-fixtures';

const money = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const created: string[] = [];

/** A tool in packs of 12: $12.40, $11.20 from 96 units, $9.90 from 480; a quote above 960. */
async function packedTool(extra: Record<string, unknown> = {}) {
  const name = typeof extra.name === 'string' ? extra.name : `Trade Test Hammer ${Date.now()}`;
  const { status, data } = await apiWith<{ insertedId: string }>(await demoAdminToken(), 'POST', 'tools', {
    name,
    description: 'A boxed hammer for the trade tests.',
    price: 12.4,
    minimumOrderQuantity: 12,
    availableQuantity: 2000,
    img: '/images/tools/rubber-mallet.svg',
    packSize: 12,
    quoteAbove: 960,
    priceBreaks: [
      { minQuantity: 96, price: 11.2 },
      { minQuantity: 480, price: 9.9 },
    ],
    ...extra,
  });
  expect(status, JSON.stringify(data)).toBe(201);
  created.push(data.insertedId);
  return { id: data.insertedId, name };
}

// Other files pick the newest tools and buy arbitrary quantities of them at the list price.
test.afterAll(async () => {
  const token = await demoAdminToken();
  for (const id of created) await apiWith(token, 'DELETE', `tools/dlt/${id}`);
});

const unitPrice = (page: Page) => page.getByTestId('unit-price');
const lineTotal = (page: Page) => page.getByTestId('line-total');

test.describe('shopper', () => {
  let shopper: Account;
  test.beforeAll(async () => {
    shopper = await newAccount('Trade Buyer', 'trade');
  });

  test('the tool page shows its price table and pack size; the purchase form prices live, hints the next break and wants whole packs', async ({
    page,
  }) => {
    const tool = await packedTool();
    await login(page, shopper, `/tools/${tool.id}`);
    await expect(page.getByText('12–95: $12.40 · 96–479: $11.20 · 480+: $9.90')).toBeVisible();
    const table = page.getByRole('table', { name: 'Quantity prices' });
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(table.getByRole('row', { name: /96–479 units/ })).toContainText('$11.20 each');
    await expect(page.getByText('Sold in packs of 12')).toBeVisible();
    await expect(unitPrice(page)).toBeVisible();
    await expectNoAxeViolations(page);

    const quantity = page.getByLabel('Quantity', { exact: true });
    await expect(quantity).toHaveAttribute('step', '12');
    await expect(unitPrice(page)).toHaveText('$12.40');
    await quantity.fill('84');
    await expect(unitPrice(page)).toHaveText('$12.40');
    await expect(lineTotal(page)).toHaveText(money(84 * 1240));
    const hint = page.getByRole('button', { name: 'Add 12 more for $11.20 each' });
    await expect(hint).toBeVisible();
    await hint.click();
    await expect(quantity).toHaveValue('96');
    await expect(unitPrice(page)).toHaveText('$11.20');
    await expect(lineTotal(page)).toHaveText(money(96 * 1120));
    await expect(page.getByTestId('next-break')).toHaveCount(0);
    await quantity.fill('480');
    await expect(unitPrice(page)).toHaveText('$9.90');

    // A part pack: the message on blur, Purchase disabled until a whole pack.
    await quantity.fill('100');
    await expect(page.getByText(messages.quantityNotMultiple(12))).toBeHidden();
    await quantity.blur();
    await expect(page.getByText(messages.quantityNotMultiple(12))).toBeVisible();
    await expect(page.getByRole('button', { name: 'Purchase' })).toBeDisabled();
    await quantity.fill('108');
    await expect(page.getByText(messages.quantityNotMultiple(12))).toBeHidden();
    await expect(page.getByRole('button', { name: 'Purchase' })).toBeEnabled();

    // Above the quote threshold: a quote request instead of ordering (the quotes API is stood in for).
    let asked: unknown;
    await page.route('**/api/quotes', async (route) => {
      asked = route.request().postDataJSON();
      await route.fulfill({ status: 201, contentType: 'application/json', json: { insertedId: 'q1' } });
    });
    await quantity.fill('972');
    await quantity.blur();
    await expect(page.getByText(messages.quantityNeedsQuote(960))).toBeVisible();
    await expect(page.getByRole('button', { name: 'Purchase' })).toHaveCount(0);
    await page.getByLabel('Note for the quote (optional)').fill('Delivery in March');
    await page.getByRole('button', { name: 'Ask for a quote', exact: true }).click();
    await expect(toastSaying(page, messages.quoteRequested)).toBeVisible();
    await expect(page.getByRole('link', { name: 'See My Quotes' })).toHaveAttribute('href', '/dashboard/myquotes');
    expect(asked).toEqual({ items: [{ toolId: tool.id, quantity: 972 }], note: 'Delivery in March' });
  });

  test('the cart prices each line from its breaks as the quantity changes, steps by the pack, and asks a quote for the whole cart', async ({
    page,
  }) => {
    const tool = await packedTool();
    await login(page, shopper, `/tools/${tool.id}`);
    await page.getByLabel('Quantity', { exact: true }).fill('84');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByText(messages.cartAdded)).toBeVisible();

    await page.goto('/cart');
    const line = page.getByTestId('cart-line').filter({ hasText: tool.name });
    await expect(line.getByTestId('cart-unit-price')).toHaveText('$12.40');
    await expect(line.getByTestId('cart-line-total')).toHaveText(money(84 * 1240));
    await expect(page.getByTestId('cart-total')).toHaveText(money(84 * 1240));
    await line.getByRole('button', { name: 'Add 12 more for $11.20 each' }).click();
    await expect(line.getByLabel(`Quantity of ${tool.name}`)).toHaveValue('96');
    await expect(line.getByTestId('cart-unit-price')).toHaveText('$11.20');
    await expect(page.getByTestId('cart-total')).toHaveText(money(96 * 1120));
    await line.getByRole('button', { name: `12 more of ${tool.name}` }).click();
    await expect(page.getByTestId('cart-total')).toHaveText(money(108 * 1120));
    await line.getByRole('button', { name: `12 fewer of ${tool.name}` }).click();
    await line.getByRole('button', { name: `12 fewer of ${tool.name}` }).click();
    await expect(page.getByTestId('cart-total')).toHaveText(money(84 * 1240));
    // A break reached in the cart is not a price change.
    await expect(page.getByText(messages.cartChanged)).toHaveCount(0);
    await line.getByLabel(`Quantity of ${tool.name}`).fill('90');
    await expect(line.getByText(messages.quantityNotMultiple(12))).toBeVisible();
    await expect(page.getByRole('button', { name: 'Place order' })).toBeDisabled();
    await line.getByLabel(`Quantity of ${tool.name}`).fill('96');

    let asked: unknown;
    await page.route('**/api/quotes', async (route) => {
      asked = route.request().postDataJSON();
      await route.fulfill({ status: 201, contentType: 'application/json', json: { insertedId: 'q2' } });
    });
    await page.getByText('Ask for a quote instead').click();
    await page.getByRole('button', { name: 'Ask for a quote', exact: true }).click();
    await expect(toastSaying(page, messages.quoteRequested)).toBeVisible();
    expect(asked).toEqual({ items: [{ toolId: tool.id, quantity: 96 }], note: '' });
  });
});

test.describe('admin', () => {
  test('Edit product changes a price break (each row checked), and the tool page shows it', async ({ page }) => {
    const tool = await packedTool();
    await loginHydrated(page, DEMO_ADMIN, '/dashboard/allproduct');
    await rowWith(page, tool.name)
      .getByRole('link', { name: `Edit ${tool.name}` })
      .click();
    await expect(page).toHaveURL(`/dashboard/editproduct/${tool.id}`);
    await expect(page.getByLabel('Name')).toHaveValue(tool.name);
    await expect(page.getByLabel('Available quantity')).toHaveCount(0);
    await expect(page.getByLabel('Pack size')).toHaveValue('12');
    await expect(page.getByTestId('price-break')).toHaveCount(2);
    await expectNoAxeViolations(page);

    const secondPrice = page.getByLabel('Unit price (USD), break 2');
    await secondPrice.fill('11.5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Each break must be cheaper than the price before it')).toBeVisible();
    await expect(secondPrice).toHaveAttribute('aria-invalid', 'true');

    await secondPrice.fill('9.9');
    await page.getByLabel('Unit price (USD), break 1').fill('11');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(toastSaying(page, `${tool.name} was saved`)).toBeVisible();
    await expect(page).toHaveURL('/dashboard/allproduct');

    await page.goto(`/tools/${tool.id}`);
    await expect(page.getByText('12–95: $12.40 · 96–479: $11.00 · 480+: $9.90')).toBeVisible();
  });

  test('Stock history lists a sale with its order; a tool below its low-stock level is badged and sorted first', async ({
    page,
  }) => {
    const tool = await packedTool();
    const buyer = await newAccount('Ledger Buyer', 'ledger');
    const order = await placeOrder(buyer, tool.id, 96, false);
    const low = await packedTool({
      name: `Trade Scarce Hammer ${Date.now()}`,
      availableQuantity: 24,
      lowStockUnits: 100,
      priceBreaks: [],
      quoteAbove: null,
    });

    await loginHydrated(page, DEMO_ADMIN, '/dashboard/allproduct');
    await expect(rowWith(page, low.name).getByText('Low stock', { exact: true })).toBeVisible();
    await expect(rowWith(page, tool.name).getByText('Low stock', { exact: true })).toHaveCount(0);
    await page.getByLabel('Sort by').selectOption('low-stock');
    await expect(page).toHaveURL(/\?sort=low-stock$/);
    await expect(page.getByRole('row').nth(1)).toContainText('Low stock');

    await page.getByLabel('Sort by').selectOption('');
    await rowWith(page, tool.name)
      .getByRole('link', { name: `Stock history of ${tool.name}` })
      .click();
    await expect(page).toHaveURL(`/dashboard/stock/${tool.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Stock history: ${tool.name}` })).toBeVisible();
    const rows = page.getByRole('row').filter({ has: page.getByRole('rowheader') });
    await expect(rows).toHaveCount(2);
    const sale = rows.first();
    await expect(sale).toContainText('sale');
    await expect(sale).toContainText('96 taken');
    await expect(sale.getByRole('cell').last()).toHaveText('1,904');
    await expect(sale.getByRole('link', { name: /^Order / })).toHaveAttribute('href', `/dashboard/orders/${order.id}`);
    await expect(rows.last()).toContainText('admin restock');
    await expect(rows.last().getByRole('cell').last()).toHaveText('2,000');
    await expectNoAxeViolations(page);

    // A phone: the rows stack into cards, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(sale).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
  });
});
