// Issue 26: a quote from request to paid order. The demo shopper asks on the tool's page (a quantity
// above its quote threshold turns Purchase into Ask for a quote), the admin answers
// on the Quotes screen (a unit price per line, the live total), the shopper accepts on My Quotes with an
// address and phone, lands on the payment page and pays with the sandbox card; the order is paid.
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { apiWith, demoAdminToken, loginHydrated, rowWith, tokenOf, toastSaying } from './dashboard-fixtures';
import { DEMO_ADMIN, DEMO_SHOPPER } from './fixtures';

/** No page scrolls sideways at a phone's width. */
async function expectNoSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

test('a quote from request to paid order', async ({ browser }) => {
  const admin = await demoAdminToken();
  const tool = await apiWith<{ insertedId: string }>(admin, 'POST', 'tools', {
    name: `Trade claw hammer ${Date.now()}`,
    description: 'Sold by the box to the trade.',
    price: 10,
    minimumOrderQuantity: 10,
    packSize: 10,
    quoteAbove: 100,
    priceBreaks: [{ minQuantity: 50, price: 9 }],
    availableQuantity: 1000,
    img: '/images/tools/ball-peen-hammer.svg',
  });
  expect(tool.status, JSON.stringify(tool.data)).toBe(201);
  const shopper = await tokenOf(DEMO_SHOPPER);

  // The shopper asks on the tool's page: 200 units are above its quote threshold of 100.
  const page = await (await browser.newContext()).newPage();
  await loginHydrated(page, DEMO_SHOPPER, `/tools/${tool.data.insertedId}`);
  const quantity = page.getByLabel('Quantity');
  await quantity.fill('200');
  await quantity.blur();
  await expect(page.getByText(messages.quantityNeedsQuote(100))).toBeVisible();
  await page.getByLabel('Note for the quote (optional)').fill('Two hundred for a site, please');
  await page.getByRole('button', { name: 'Ask for a quote', exact: true }).click();
  await expect(toastSaying(page, messages.quoteRequested)).toBeVisible();
  const mineNow = await apiWith<{ _id: string; lines: { toolId: string }[] }[]>(shopper, 'GET', 'quotes');
  const asked = { data: { insertedId: mineNow.data.find((q) => q.lines[0]?.toolId === tool.data.insertedId)!._id } };
  const ref = asked.data.insertedId.slice(-8).toUpperCase();

  // The admin answers: the price prefilled with the list price ($9.00 at 200 units), the total live.
  const adminPage = await (await browser.newContext()).newPage();
  await loginHydrated(adminPage, DEMO_ADMIN, '/dashboard/quotes?state=requested');
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Quotes' })).toBeVisible();
  const row = rowWith(adminPage, ref);
  await expect(row).toContainText('Two hundred for a site, please');
  await expect(row.getByText('Awaiting answer')).toBeVisible();
  await row.getByRole('button', { name: `Answer quote ${ref}` }).click();
  const dialog = adminPage.getByRole('dialog', { name: `Answer quote ${ref}` });
  const price = dialog.getByLabel(/Unit price for 200 ×/);
  await expect(price).toHaveValue('9');
  await expect(dialog.getByTestId('answer-total')).toHaveText('$1,800.00');
  await price.fill('8.5');
  await expect(dialog.getByTestId('answer-total')).toHaveText('$1,700.00');
  await adminPage.screenshot({ path: test.info().outputPath('answer-dialog.png') });
  await dialog.getByRole('button', { name: 'Send the answer' }).click();
  await expect(toastSaying(adminPage, messages.quoteAnswered)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('Answered', { exact: true })).toBeVisible();
  await adminPage.setViewportSize({ width: 360, height: 740 });
  await expectNoSidewaysScroll(adminPage);
  await adminPage.screenshot({ path: test.info().outputPath('quotes-phone.png'), fullPage: true });

  // The shopper sees the list and the quoted price, accepts, and pays on the order's payment page.
  await page.goto('/dashboard/myquotes');
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(page.getByRole('heading', { level: 1, name: 'My Quotes' })).toBeVisible();
  const mine = rowWith(page, ref);
  await expect(mine).toContainText('$1,700.00');
  await expect(mine.getByText('Answered', { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('my-quotes-phone.png'), fullPage: true });
  await mine.getByRole('button', { name: `Accept quote ${ref}` }).click();
  const accept = page.getByRole('dialog', { name: `Accept quote ${ref}` });
  await accept.getByLabel('Address').fill('House 12, Road 5, Dhanmondi, Dhaka');
  await accept.getByLabel('Phone').fill('01712345678');
  await page.screenshot({ path: test.info().outputPath('accept-dialog-phone.png') });
  await accept.getByRole('button', { name: 'Accept and place the order' }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[0-9a-f]{24}$/);
  const orderId = page.url().split('/').pop()!;
  await expect(page.getByTestId('payment-total')).toContainText('$1,700.00');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText(messages.paymentSuccess)).toBeVisible();

  const order = await apiWith<{ payment: string; totalCents: number }>(shopper, 'GET', `booking/${orderId}`);
  expect(order.data).toMatchObject({ payment: 'paid', totalCents: 170_000 });
  const quote = await apiWith<{ state: string; orderId: string }>(shopper, 'GET', `quotes/${asked.data.insertedId}`);
  expect(quote.data).toMatchObject({ state: 'accepted', orderId });
  await page.goto('/dashboard/myquotes');
  await expect(rowWith(page, ref).getByText('Accepted', { exact: true })).toBeVisible();
});
