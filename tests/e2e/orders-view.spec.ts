// Issue 24, "My Orders and the admin's orders": a buyer's orders show their date, total and lines, and
// the transaction id stays whole; Manage All Orders searches, filters, sorts and keeps the view in the
// address; All Users searches by email.
import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN } from './fixtures';
import { apiWith, createTool, loginHydrated, newAccount, placeOrder, rowWith } from './dashboard-fixtures';

const total = (page: Page) => page.getByTestId('total');
const bodyRows = (page: Page) => page.getByRole('row').filter({ has: page.getByRole('rowheader') });

test('my orders: each order shows its date, total and lines; the transaction id is never broken at 390 px', async ({
  page,
}) => {
  const buyer = await newAccount('Lines Buyer', 'linesbuyer');
  const saw = await createTool({ name: `Test Lines Saw ${Date.now()}`, price: 20, availableQuantity: 500 });
  const file = await createTool({ name: `Test Lines File ${Date.now()}`, price: 3.5 });
  const cart = await apiWith<{ insertedId: string }>(buyer.token, 'POST', 'orders', {
    items: [
      { toolId: saw, quantity: 100 },
      { toolId: file, quantity: 31 },
    ],
    address: '12 Forge Lane, Dhaka',
    phone: '01712345678',
  });
  expect(cart.status, JSON.stringify(cart.data)).toBe(201);
  await placeOrder(buyer, saw, 2, true);

  await loginHydrated(page, buyer, '/dashboard/myorders');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'My Orders: 2' })).toBeVisible();
  const cartRow = bodyRows(page).filter({ hasText: 'Test Lines File' });
  // The lines, each with its own quantity; no sum of different tools (131). The names carry a
  // timestamp, which may hold "131" itself: look for the sum as a quantity only.
  await expect(cartRow).toContainText('100 × Test Lines Saw');
  await expect(cartRow).toContainText('31 × Test Lines File');
  await expect(cartRow).not.toContainText(/(^|\D)131 ×|131 tools|131 items/);
  await expect(cartRow).toContainText('$2,108.50');
  const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
  await expect(cartRow.locator('time').first()).toHaveText(today);

  const paidRow = bodyRows(page).filter({ hasText: 'Transaction id' });
  await expect(paidRow).toContainText('$40.00');
  const id = paidRow.locator('code');
  const box = (await id.boundingBox())!;
  const lineHeight = await id.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect(box.height, 'the transaction id is on one line').toBeLessThan(lineHeight * 1.5);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('manage all orders: search, payment and shipping filters, dates and sort live in the address and survive a reload', async ({
  page,
}) => {
  const stamp = Date.now();
  const ann = await newAccount(`Annika View${stamp}`, `annview${stamp}`);
  const bob = await newAccount(`Bob View${stamp}`, `bobview${stamp}`);
  const tool = await createTool({ name: `Test View Chisel ${stamp}`, price: 10 });
  await placeOrder(ann, tool, 5, true);
  await placeOrder(ann, tool, 2, false);
  await placeOrder(bob, tool, 9, true);

  await loginHydrated(page, DEMO_ADMIN, '/dashboard/manageallproducts');
  const search = page.getByRole('search', { name: 'Find orders' });
  await search.getByLabel('Search').fill(`View${stamp}`);
  await search.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=View${stamp}`));
  await expect(total(page)).toHaveText('Total matching orders: 3');

  await search.getByLabel('Payment').selectOption('paid');
  await expect(total(page)).toHaveText('Total matching orders: 2');
  await search.getByLabel('Sort by').selectOption('total-asc');
  await expect(page).toHaveURL(/payment=paid/);
  await expect(page).toHaveURL(/sort=total-asc/);
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(bodyRows(page).nth(0)).toContainText(ann.email);
  await expect(bodyRows(page).nth(1)).toContainText(bob.email);

  // The address is the view: opened afresh, it shows the same orders, filters filled in.
  await page.reload();
  await expect(total(page)).toHaveText('Total matching orders: 2');
  await expect(search.getByLabel('Search')).toHaveValue(`View${stamp}`);
  await expect(search.getByLabel('Payment')).toHaveValue('paid');
  await expect(bodyRows(page).nth(0)).toContainText(ann.email);

  // Shipping: mark Bob's shipped; the Pending filter then has only Ann's.
  await rowWith(page, bob.email)
    .getByRole('button', { name: /^Shipped/ })
    .click();
  const form = page.getByRole('dialog', { name: 'Ship this order' });
  await form.getByLabel('Carrier').fill('DHL');
  await form.getByLabel('Tracking number').fill('JD0146000');
  await form.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(rowWith(page, bob.email).getByRole('button')).toHaveCount(0);
  await search.getByLabel('Shipping').selectOption('pending');
  await expect(total(page)).toHaveText('Total matching orders: 1');
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page).first()).toContainText(ann.email);

  // A date range that ends before today finds none of them; Back undoes it.
  await search.getByLabel('Shipping').selectOption('');
  await search.getByLabel('Placed until').fill('2020-01-01');
  await expect(page.getByText('No orders match this search and these filters.')).toBeVisible();
  await page.goBack();
  await expect(total(page)).toHaveText('Total matching orders: 2');

  await search.getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(page).toHaveURL(/\/dashboard\/manageallproducts$/);
  await expect(total(page)).toHaveText(/^Total orders: \d+$/);
});

test('all users: search by email, kept in the address, with paging of what matches', async ({ page }) => {
  const stamp = Date.now();
  for (const n of [1, 2, 3]) await newAccount(`Finder ${n}`, `finder${n}x${stamp}`);
  await loginHydrated(page, DEMO_ADMIN, '/dashboard/allusers?pageSize=2');
  const search = page.getByRole('search', { name: 'Find users' });
  await search.getByLabel('Search by email').fill(`x${stamp}`);
  await search.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(total(page)).toHaveText('Total matching users: 3');
  await expect(page).toHaveURL(new RegExp(`q=x${stamp}`));
  await expect(bodyRows(page)).toHaveCount(2);
  const pager = page.getByRole('navigation', { name: 'User pages' });
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText('3–3 of 3');
  await search.getByRole('button', { name: 'Show all' }).click();
  await expect(total(page)).toHaveText(/^Total users: \d+$/);
});
