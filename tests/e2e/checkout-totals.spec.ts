// Checkout totals (issue 27) as a shopper meets them: the shop charges $5 delivery and 15% VAT and
// offers a 10% code. On a tool's page and in the cart the breakdown shows before ordering, a bad code
// says why, the applied code goes with the order; the payment page keeps the spec's line with the
// breakdown under it, and My Orders shows it too. The settings go back to none at the end.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { formatCents } from '../../src/lib/money';
import { pricingOfTool, unitPriceCents } from '../../src/lib/pricing';
import { orderTotals, type DiscountRule } from '../../src/lib/totals';
import { DEMO_ADMIN, login, liveTools, signOut, type ToolJson } from './fixtures';
import { apiWith, demoAdminToken, loginHydrated, newAccount, type Account } from './dashboard-fixtures';

const SHOTS = '/tmp/shots-totalsui';
const SETTINGS = { deliveryFlat: 5, freeDeliveryOver: null, vatRate: 15, pricesIncludeVat: false };
const NONE = { deliveryFlat: 0, freeDeliveryOver: null, vatRate: 0, pricesIncludeVat: false };
const CODE = `TRADE10${Date.now().toString(36).toUpperCase()}`;
const TEN_OFF: DiscountRule = { percentOffHundredths: 1000 };

let shopper: Account;
let tool: ToolJson;

/** What the server should charge for `quantity` of the tool, with or without the code. */
function expected(quantity: number, discount: DiscountRule | null = null) {
  const unitCents = unitPriceCents(pricingOfTool(tool), quantity);
  const t = orderTotals(
    [{ quantity, unitCents }],
    { deliveryFlatCents: 500, freeDeliveryOverCents: null, vatRateHundredths: 1500, pricesIncludeVat: false },
    discount,
  );
  return { ...t, unitCents };
}

async function expectBreakdown(page: Page, t: ReturnType<typeof expected>, code: string | null) {
  const box = page.getByTestId('totals-breakdown').first();
  await expect(box).toBeVisible();
  await expect(box).toContainText(`Subtotal${formatCents(t.subtotalCents)}`);
  if (code) await expect(box).toContainText(`Discount (${code})−${formatCents(t.discountCents)}`);
  else await expect(box).not.toContainText('Discount');
  await expect(box).toContainText(`Delivery${formatCents(t.deliveryCents)}`);
  await expect(box).toContainText(`VAT 15%+${formatCents(t.taxCents)}`);
  await expect(box.getByTestId('breakdown-total')).toHaveText(formatCents(t.totalCents));
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('checkout totals', () => {
  test.beforeAll(async ({ request }) => {
    const admin = await demoAdminToken();
    const set = await apiWith(admin, 'PUT', 'settings', SETTINGS);
    expect(set.status, JSON.stringify(set.data)).toBe(200);
    const made = await apiWith(admin, 'POST', 'discounts', { code: CODE, percentOff: 10 });
    expect(made.status, JSON.stringify(made.data)).toBe(201);
    shopper = await newAccount('Totals Shopper', 'totals');
    // A tool sold by the unit price alone at these quantities (no breaks, no quote threshold in the way).
    const found = (await liveTools(request)).find(
      (t) =>
        !t.priceBreaks.length &&
        t.quoteAbove === null &&
        t.packSize === 1 &&
        t.availableQuantity >= t.minimumOrderQuantity + 6,
    );
    expect(found).toBeTruthy();
    tool = found!;
  });

  test.afterAll(async () => {
    const reset = await apiWith(await demoAdminToken(), 'PUT', 'settings', NONE);
    expect(reset.status).toBe(200);
  });

  test('on the tool page: the breakdown, a bad code, the code applied, the order paid with the spec line and the breakdown', async ({
    page,
  }) => {
    await login(page, shopper);
    await page.goto(`/tools/${tool._id}`);
    const quantity = tool.minimumOrderQuantity + 1;
    await page.getByLabel('Quantity', { exact: true }).fill(String(quantity));
    await expectBreakdown(page, expected(quantity), null);

    const field = page.getByLabel('Discount code');
    await field.fill('NOSUCHCODE1');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('alert').filter({ hasText: messages.discountUnknown })).toBeVisible();

    await field.fill(CODE.toLowerCase());
    await expect(page.getByRole('alert').filter({ hasText: messages.discountUnknown })).toBeHidden();
    await page.getByRole('button', { name: 'Apply' }).click();
    const withCode = expected(quantity, TEN_OFF);
    await expectBreakdown(page, withCode, CODE);
    await shoot(page, 'purchase-form-code');

    await page.getByLabel('Address').fill('House 12, Road 5, Dhanmondi, Dhaka');
    await page.getByLabel('Phone').fill('01712345678');
    await page.getByRole('button', { name: 'Purchase' }).click();
    await page.getByRole('link', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/dashboard\/payment\//);
    // The spec's line stays as it was; the breakdown under it says what the payment charges.
    await expect(page.getByTestId('payment-total')).toHaveText(
      `${quantity} x ${formatCents(withCode.unitCents)} = ${formatCents(quantity * withCode.unitCents)}`,
    );
    await expectBreakdown(page, withCode, CODE);
    await expect(page.getByLabel('Card number')).toBeVisible();
    await shoot(page, 'payment');
  });

  test('in the cart: the breakdown as quantities change, a bad code, the code applied and ordered; My Orders shows it', async ({
    page,
  }) => {
    await login(page, shopper);
    await page.goto(`/tools/${tool._id}`);
    const quantity = tool.minimumOrderQuantity + 2;
    await page.getByLabel('Quantity', { exact: true }).fill(String(quantity));
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByText(messages.cartAdded)).toBeVisible();

    await page.goto('/cart');
    await expectBreakdown(page, expected(quantity), null);
    await page.getByRole('button', { name: `One more of ${tool.name}` }).click();
    await expectBreakdown(page, expected(quantity + 1), null);
    await page.getByRole('button', { name: `One less of ${tool.name}` }).click();
    await expectBreakdown(page, expected(quantity), null);

    const field = page.getByLabel('Discount code');
    await field.fill('NOSUCHCODE2');
    await field.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: messages.discountUnknown })).toBeVisible();
    await field.fill(CODE);
    await page.getByRole('button', { name: 'Apply' }).click();
    const withCode = expected(quantity, TEN_OFF);
    await expectBreakdown(page, withCode, CODE);
    await shoot(page, 'cart-code');

    await page.getByLabel('Address').fill('House 3, Road 9, Gulshan, Dhaka');
    await page.getByLabel('Phone').fill('01712345678');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('status').filter({ hasText: messages.orderPlaced })).toBeVisible();
    await expect(page.getByTestId('placed-total')).toHaveText(formatCents(withCode.totalCents));
    await expectBreakdown(page, withCode, CODE);

    await page.goto('/dashboard/myorders');
    const total = page.getByText(formatCents(withCode.totalCents), { exact: true }).first();
    await total.click();
    await expectBreakdown(page, withCode, CODE);
    await shoot(page, 'myorders');

    // The order's page has the whole breakdown.
    await page
      .getByRole('link', { name: /^Order details/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/dashboard\/orders\//);
    await expectBreakdown(page, withCode, CODE);
    await shoot(page, 'order-page');

    // The admin's All Orders keeps its columns: the total, with the delivery under it and the rest in its title.
    await signOut(page);
    await loginHydrated(page, DEMO_ADMIN, '/dashboard/manageallproducts');
    const search = page.getByRole('search', { name: 'Find orders' });
    await search.getByLabel('Search').fill(shopper.email);
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    const cell = page.getByTitle(/^Subtotal /).filter({ hasText: formatCents(withCode.totalCents) });
    await expect(cell).toContainText(`incl. ${formatCents(withCode.deliveryCents)} delivery`);
    await expect(cell).toHaveAttribute('title', new RegExp(`Discount \\(${CODE}\\)`));
    await shoot(page, 'manage-all-orders');
  });
});
