// Issue 27, the admin's side of checkout totals: Settings saves delivery and VAT (the example order
// follows the form as it is typed), and Discounts creates a code, refuses the same code twice and
// removes it. Both screens pass axe and fit a 390 px phone. The settings go back to zero afterwards:
// the other browser tests expect orders with no delivery and no VAT.
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { DEMO_ADMIN, expectNoAxeViolations } from './fixtures';
import { apiWith, confirmDialog, demoAdminToken, loginHydrated, rowWith, toastSaying } from './dashboard-fixtures';

const ZERO = { deliveryFlat: 0, vatRate: 0, pricesIncludeVat: false };

async function resetSettings() {
  const { status, data } = await apiWith(await demoAdminToken(), 'PUT', 'settings', ZERO);
  expect(status, JSON.stringify(data)).toBe(200);
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, windowWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(windowWidth);
}

test.beforeAll(resetSettings);
test.afterAll(resetSettings);

test('an admin sets delivery and VAT, sees the example order change, and finds them saved', async ({ page }) => {
  try {
    await loginHydrated(page, DEMO_ADMIN, '/dashboard/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const example = page.getByTestId('settings-example');
    await expect(example).toHaveText('An order of $100.00 of goods: delivery $0.00, VAT $0.00, total $100.00');
    await expect(page.getByText(messages.settingsApplyLater)).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel('Delivery per order ($)').fill('4.99');
    await page.getByLabel('VAT rate (%)').fill('15');
    // 15% of $104.99 is $15.7485: rounded half-up once, to $15.75.
    await expect(example).toHaveText('An order of $100.00 of goods: delivery $4.99, VAT $15.75, total $120.74');
    await page.getByLabel('Prices include VAT').check();
    await expect(example).toHaveText(
      'An order of $100.00 of goods: delivery $4.99, VAT $13.69 included, total $104.99',
    );
    await page.getByLabel('Prices include VAT').uncheck();

    // A rate above 100 is refused on the form, before anything is sent.
    await page.getByLabel('VAT rate (%)').fill('150');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('VAT rate must be at most 100')).toBeVisible();
    await page.getByLabel('VAT rate (%)').fill('15');

    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(toastSaying(page, messages.settingsSaved)).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Delivery per order ($)')).toHaveValue('4.99');
    await expect(page.getByLabel('VAT rate (%)')).toHaveValue('15');
    await expect(page.getByLabel('Prices include VAT')).not.toBeChecked();
    await expect(example).toHaveText('An order of $100.00 of goods: delivery $4.99, VAT $15.75, total $120.74');
    const { data } = await apiWith(null, 'GET', 'settings');
    expect(data).toMatchObject({ deliveryFlat: 4.99, vatRate: 15, pricesIncludeVat: false });

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
  } finally {
    await resetSettings();
  }
});

test('an admin creates a discount code, cannot create it twice, and removes it', async ({ page }) => {
  const code = `E2E${Date.now()}`;
  await loginHydrated(page, DEMO_ADMIN, '/dashboard/discounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Discounts' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);

  const create = page.getByRole('button', { name: 'Create code' });
  // The form checks before sending: no value, and an end before the start.
  await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
  await page.getByLabel('Starts (optional)').fill('2030-02-01');
  await page.getByLabel('Ends (optional)').fill('2030-01-01');
  await create.click();
  await expect(page.getByText('Give either a percent off or an amount off')).toBeVisible();
  await expect(page.getByText('The end must be after the start')).toBeVisible();

  await page.getByLabel('Percent off', { exact: true }).check();
  await page.getByLabel('Percent off (%)').fill('10');
  await page.getByLabel('Starts (optional)').fill('');
  await page.getByLabel('Ends (optional)').fill('');
  await page.getByLabel('Minimum goods ($, optional)').fill('20');
  await page.getByLabel('Max uses (optional)').fill('10');
  await page.getByLabel('Once per customer').check();
  await create.click();
  await expect(toastSaying(page, messages.discountCreated(code))).toBeVisible();
  const row = rowWith(page, code);
  await expect(row).toContainText('10% off');
  await expect(row).toContainText('Goods from $20.00');
  await expect(row).toContainText('0 of 10 used');
  await expect(row).toContainText('Once per customer');
  await expect(row).toContainText('Active');
  await expect(page.getByLabel('Code', { exact: true })).toHaveValue('');

  // The same code again, in other letters and as an amount: the server refuses it on the code field.
  await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
  await page.getByLabel('Amount off', { exact: true }).check();
  await page.getByLabel('Amount off ($)').fill('5');
  await create.click();
  await expect(page.locator('#field-code-error')).toHaveText(messages.discountCodeTaken);
  await expect(rowWith(page, code)).toHaveCount(1);
  // The screen with a field in error and the list, once the toasts (checked in their own tests) are gone.
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  await row.getByRole('button', { name: `Remove the code ${code}` }).click();
  await expect(confirmDialog(page)).toContainText(code);
  await confirmDialog(page).getByRole('button', { name: 'Remove' }).click();
  await expect(toastSaying(page, messages.discountRemoved(code))).toBeVisible();
  await expect(rowWith(page, code)).toHaveCount(0);
});
