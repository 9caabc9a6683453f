// Issue 25 in the browser: the admin ships a paid order from its page (carrier and tracking number) and
// marks it delivered; the buyer follows it on their order page (timeline, tracking link, invoice PDF);
// the Emails screen shows what the store sent, with Resend. Phones included.
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN } from './fixtures';
import { createTool, loginHydrated, newAccount, placeOrder, rowWith, toastSaying } from './dashboard-fixtures';

test('an order from payment to delivery: shipped and delivered by the admin, followed by the buyer, with its invoice', async ({
  page,
  browser,
}) => {
  const buyer = await newAccount('Tracy Tracking', 'tracking');
  const product = `Test Track Hammer ${Date.now()}`;
  const tool = await createTool({ name: product, price: 12.5 });
  const { id } = await placeOrder(buyer, tool, 4, true);

  // The admin: from Manage All Orders to the order's page, then ship and deliver it there.
  await loginHydrated(page, DEMO_ADMIN, `/dashboard/manageallproducts?q=${encodeURIComponent(buyer.email)}`);
  await rowWith(page, buyer.email)
    .getByRole('link', { name: /^Order details/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Order ${id.slice(-8).toUpperCase()}` })).toBeVisible();
  await expect(page.getByText('Paid · Pending')).toBeVisible();
  await page.getByRole('button', { name: 'Ship this order' }).click();
  const form = page.getByRole('dialog', { name: 'Ship this order' });
  await form.getByLabel('Carrier').fill('DHL');
  await form.getByLabel('Tracking number').fill('bad<tracking>');
  await form.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(form.getByText('A tracking number has letters, digits, spaces and dashes only')).toBeVisible();
  await form.getByLabel('Tracking number').fill('JD0146000');
  await form.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(toastSaying(page, `${product} for ${buyer.email} is marked shipped`)).toBeVisible();
  await expect(page.getByText('DHL, tracking number JD0146000')).toBeVisible();
  await page.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(toastSaying(page, 'The order is marked delivered')).toBeVisible();
  await expect(page.getByTestId('order-step')).toHaveCount(4);
  await expect(page.getByTestId('order-step').last()).toContainText(`Delivered`);
  await expect(page.getByTestId('order-step').last()).toContainText(`by ${DEMO_ADMIN.email}`);

  // The buyer, on a phone: My Orders links the order's page; tracking and the invoice are there.
  const context = await browser.newContext();
  const phone = await context.newPage();
  await loginHydrated(phone, buyer, '/dashboard/myorders');
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone
    .getByRole('link', { name: /^Order details/ })
    .first()
    .click();
  await expect(phone).toHaveURL(new RegExp(`/dashboard/orders/${id}$`));
  await expect(phone.getByTestId('order-step')).toHaveText([
    /Order placed/,
    /Payment received/,
    /Shipped/,
    /Delivered/,
  ]);
  await expect(phone.getByRole('link', { name: /Track your parcel/ })).toHaveAttribute('href', /dhl\.com.*JD0146000/);
  await expect(phone.getByText('4 x $12.50 = $50.00')).toBeVisible();
  await expect(phone.getByRole('button', { name: 'Ship this order' })).toHaveCount(0);
  const download = phone.waitForEvent('download');
  await phone.getByRole('button', { name: /^Download invoice INV-\d{4}-\d{6}$/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^INV-\d{4}-\d{6}\.pdf$/);
  const bytes = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();

  // The Emails screen: what the buyer was sent, kept (no SMTP here), and Resend.
  await page.goto('/dashboard/emails');
  await expect(page.getByRole('heading', { level: 1, name: 'Emails' })).toBeVisible();
  const mails = rowWith(page, buyer.email);
  await expect(mails.filter({ hasText: 'has shipped' })).toHaveCount(1);
  await expect(mails.filter({ hasText: /Payment received/ })).toContainText(/Attached: INV-\d{4}-\d{6}\.pdf/);
  const delivered = mails.filter({ hasText: 'was delivered' });
  await expect(delivered).toContainText('Kept (no SMTP)');
  await delivered.getByRole('button', { name: /^Resend/ }).click();
  await expect(toastSaying(page, `Kept again for ${buyer.email}`)).toBeVisible();
});

test('the admin refunds part of a paid order, then the rest with a restock, from its page', async ({ page }) => {
  const buyer = await newAccount('Rufus Refund', 'refund');
  const product = `Test Refund Wrench ${Date.now()}`;
  const tool = await createTool({ name: product, price: 20, availableQuantity: 50 });
  const { id } = await placeOrder(buyer, tool, 3, true);
  await loginHydrated(page, DEMO_ADMIN, `/dashboard/orders/${id}`);
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Refund this order' });
  await expect(form).toContainText('$60.00 of $60.00 can be given back');
  await form.getByLabel(/^Amount in dollars/).fill('70');
  await form.getByLabel("Put the order's units back in stock").uncheck();
  await form.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(form.getByRole('alert')).toHaveText('The refund can be at most $60.00, what is left of the payment');
  await form.getByLabel(/^Amount in dollars/).fill('15');
  await form.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(toastSaying(page, 'The refund went through; the buyer is emailed a credit note')).toBeVisible();
  await expect(page.getByText('Partly refunded')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Download invoice/ })).toBeVisible();

  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(form).toContainText('$45.00 of $60.00 can be given back');
  await form.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(page.getByText('Refunded', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
  await expect(page.getByTestId('order-step')).toHaveText([/Order placed/, /Payment received/, /Refunded/, /Refunded/]);
  const stock = await (await fetch(`${new URL(page.url()).origin}/api/tools/${tool}`)).json();
  expect(stock.availableQuantity).toBe(50);
  // Activity lists the admin's refunds.
  await page.goto('/dashboard/activity');
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: 'Refunded order' })
      .filter({ hasText: id.slice(-8).toUpperCase() }),
  ).toHaveCount(2);
});

test("another shopper's order page is refused, and an unknown order says so", async ({ page }) => {
  const owner = await newAccount('Owner Olga', 'owner');
  const stranger = await newAccount('Stranger Stan', 'stranger');
  const tool = await createTool({ name: `Test Private Saw ${Date.now()}` });
  const { id } = await placeOrder(owner, tool, 1, false);
  await loginHydrated(page, stranger, `/dashboard/orders/${id}`);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /not allowed|permission|forbidden/i })
      .first(),
  ).toBeVisible();
  await expect(page.getByText('Test Private Saw')).toHaveCount(0);
});
