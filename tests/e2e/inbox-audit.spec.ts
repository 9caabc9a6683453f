// Issue 25, the contact inbox and the audit log in the browser: a visitor's 'Get In Touch' message
// reaches the admin's Messages screen, where it is marked read; an admin's restock shows on Activity
// with its before → after. Both screens fit a 390 px phone without scrolling sideways.
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { DEMO_ADMIN } from './fixtures';
import { apiWith, createTool, demoAdminToken, loginHydrated, rowWith } from './dashboard-fixtures';

async function expectNoSidewaysScroll(page: Page, label: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  const { scrollWidth, windowWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: page width at 390 px`).toBeLessThanOrEqual(windowWidth);
}

test("a visitor's message reaches Messages, and the admin marks it read", async ({ page }) => {
  const stamp = Date.now();
  const text = `Do you ship ${stamp} claw hammers to Chattogram? We need them by spring.`;

  await page.goto('/#contact');
  const form = page.locator('form[data-contact-form]');
  await page.getByLabel('Your Name').fill('Rina Das');
  await page.getByLabel('Your Email').fill('rina.das@example.com');
  await page.getByLabel('Your Messege').fill(text);
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(messages.contactSent)).toBeVisible();

  await loginHydrated(page, DEMO_ADMIN, '/dashboard/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const row = rowWith(page, text);
  await expect(row).toContainText('Rina Das');
  await expect(row).toContainText('Unread');
  await expect(row.getByRole('link', { name: 'rina.das@example.com' })).toHaveAttribute(
    'href',
    'mailto:rina.das@example.com',
  );
  await expect(row.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  const unread = Number((await page.getByTestId('unread').innerText()).match(/\d+/)![0]);
  expect(unread).toBeGreaterThan(0);

  await row.getByRole('button', { name: /^Mark read/ }).click();
  await expect(row.getByRole('button', { name: /^Mark unread/ })).toBeEnabled();
  await expect(row).toContainText('Read');
  await expect(row).not.toContainText('Unread');
  await expect(page.getByTestId('unread')).toHaveText(`${unread - 1} unread`);

  // Kept on the server: a reload shows it read.
  await page.reload();
  await expect(rowWith(page, text).getByRole('button', { name: /^Mark unread/ })).toBeVisible();
  await expectNoSidewaysScroll(page, 'Messages');
  await expect(rowWith(page, text)).toBeVisible();
});

test('an admin restock shows on Activity with who, what and the change', async ({ page }) => {
  const name = `Activity Sledge ${Date.now()}`;
  const toolId = await createTool({ name, availableQuantity: 40 });
  const restock = await apiWith(await demoAdminToken(), 'PUT', `tool/update/${toolId}`, { availableQuantity: 95 });
  expect(restock.status, JSON.stringify(restock.data)).toBe(200);

  await loginHydrated(page, DEMO_ADMIN, '/dashboard/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const restocked = rowWith(page, name).filter({ hasText: 'Restocked' });
  await expect(restocked).toContainText(DEMO_ADMIN.email);
  await expect(restocked).toContainText('available: 40 → 95');
  await expect(restocked.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(rowWith(page, name).filter({ hasText: 'Added tool' })).toContainText(`name: — → ${name}`);

  // One kind of action: the filter keeps the view in the address.
  await page.getByLabel('Action').selectOption({ label: 'Restocked' });
  await expect(page).toHaveURL(/[?&]type=tool\.restocked/);
  await expect(rowWith(page, name)).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: 'Added tool' })).toHaveCount(0);

  await expectNoSidewaysScroll(page, 'Activity');
  await expect(rowWith(page, name)).toBeVisible();
});
