// The profile's account actions (issue 24), as a person uses them: change password, download my data,
// delete my account (with a password, and with Google), the owners' refusal, and how the screen looks.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { AccountExport, Tool } from '../../src/lib/entities';
import { messages } from '../../src/lib/messages';
import {
  apiWith,
  confirmDialog,
  createTool,
  demoAdminToken,
  loginHydrated,
  newAccount,
  placeOrder,
  rowWith,
  toastSaying,
} from './dashboard-fixtures';
import { DEMO_ADMIN, expectNoAxeViolations, login, signOut, uniqueEmail } from './fixtures';

const header = (page: Page) => page.getByRole('banner');
const passwordPanel = (page: Page) => page.getByRole('region', { name: 'Password' });
const dangerZone = (page: Page) => page.getByRole('region', { name: 'Danger zone' });

/** Tries the login page with these credentials and expects to stay signed out. */
async function expectLoginRefused(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  // The emulator answers an unknown account or a wrong password as Firebase does (either code).
  await expect(
    page.getByRole('alert').filter({ hasText: new RegExp(`${messages.authWrongPassword}|${messages.authOther}`) }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await expect(header(page).getByRole('link', { name: 'Login' })).toBeVisible();
}

test.describe('the account in the profile', () => {
  test('change password: the spec rules, a wrong current password, then success; the session stays and the new password logs in', async ({
    page,
  }) => {
    test.slow(); // several sign-ins and screens on a shared machine
    const shopper = await newAccount('Pat Password');
    await loginHydrated(page, shopper, '/dashboard');
    const panel = passwordPanel(page);
    const current = panel.getByLabel('Current password');
    const next = panel.getByLabel('New password', { exact: true });
    const confirm = panel.getByLabel('Confirm new password');
    const submit = panel.getByRole('button', { name: 'Change password' });

    await next.fill('abc');
    await confirm.fill('abd');
    await submit.click();
    await expect(panel.getByText(messages.currentPasswordRequired)).toBeVisible();
    await expect(panel.getByText(messages.passwordTooShort)).toBeVisible();
    await expect(panel.getByText(messages.passwordsDontMatch)).toBeVisible();
    await expect(current).toHaveAttribute('aria-invalid', 'true');

    await current.fill('not-my-password');
    await next.fill('new-pass-456');
    await confirm.fill('new-pass-456');
    await submit.click();
    await expect(panel.getByText(messages.currentPasswordWrong)).toBeVisible();

    // From the keyboard: Enter in the form submits it.
    await current.fill(shopper.password);
    await confirm.press('Enter');
    await expect(toastSaying(page, messages.passwordChanged)).toBeVisible();
    await expect(current).toHaveValue('');
    // Still signed in, also after a reload.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Pat Password' })).toBeVisible();
    await expect(header(page).getByRole('button', { name: 'Sign Out' })).toBeVisible();

    await signOut(page);
    await expectLoginRefused(page, shopper);
    await login(page, { email: shopper.email, password: 'new-pass-456' }, '/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Pat Password' })).toBeVisible();
  });

  test('download my data: a JSON file with the profile, the orders (lines, payment, shipping) and the reviews', async ({
    page,
  }) => {
    const shopper = await newAccount('Dale Download');
    const toolId = await createTool({ name: `Export hammer ${Date.now()}`, price: 20 });
    const paid = await placeOrder(shopper, toolId, 2, true);
    const unpaid = await placeOrder(shopper, toolId, 1, false);
    const review = await apiWith(shopper.token, 'POST', 'review', {
      name: 'Dale',
      Messege: 'Solid export.',
      ratings: 4,
    });
    expect(review.status).toBe(201);

    await loginHydrated(page, shopper, '/dashboard');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^ironcrest-data-\d{4}-\d{2}-\d{2}\.json$/);
    await expect(toastSaying(page, messages.dataDownloaded)).toBeVisible();
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8')) as AccountExport;
    expect(data.profile).toMatchObject({ email: shopper.email, name: 'Dale Download' });
    expect(data.orders.map((o) => o._id)).toEqual([unpaid.id, paid.id]);
    expect(data.orders[1]).toMatchObject({
      payment: 'paid',
      transactionId: paid.transactionId,
      shippingStatus: 'pending',
      items: [{ toolId, quantity: 2, price: 20 }],
    });
    expect(data.orders[0]).toMatchObject({ payment: 'unpaid', items: [{ toolId, quantity: 1 }] });
    expect(data.reviews).toEqual([
      expect.objectContaining({ _id: review.data.insertedId, Messege: 'Solid export.', hidden: false }),
    ]);
  });

  test("delete my account with the password: confirmed, signed out, home with a toast; the login fails; the admin keeps the paid order as 'Deleted customer'", async ({
    page,
    browser,
  }) => {
    test.slow(); // several sign-ins and screens on a shared machine
    const shopper = await newAccount('Leah Leaving');
    const toolId = await createTool({ name: `Leaving hammer ${Date.now()}`, availableQuantity: 50 });
    const paid = await placeOrder(shopper, toolId, 3, true);
    const unpaid = await placeOrder(shopper, toolId, 4, false);
    const stock = async () => (await apiWith<Tool>(null, 'GET', `tools/${toolId}`)).data.availableQuantity;
    expect(await stock()).toBe(43);

    await loginHydrated(page, shopper, '/dashboard');
    const zone = dangerZone(page);
    const password = zone.getByLabel('Confirm with your password');
    const remove = zone.getByRole('button', { name: 'Delete my account' });
    await remove.click();
    await expect(zone.getByText(messages.currentPasswordRequired)).toBeVisible();
    await expect(confirmDialog(page)).toHaveCount(0);

    // Cancel keeps everything.
    await password.fill(shopper.password);
    await remove.click();
    await expect(confirmDialog(page).getByRole('heading', { name: messages.confirmTitle })).toBeVisible();
    await expect(confirmDialog(page)).toContainText(messages.confirmIrreversible);
    await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(confirmDialog(page)).toHaveCount(0);
    await expect(remove).toBeFocused();

    // A wrong password: refused by Firebase before the store is asked.
    await password.fill('not-my-password');
    await remove.click();
    await confirmDialog(page).getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(zone.getByText(messages.currentPasswordWrong)).toBeVisible();
    expect((await apiWith(shopper.token, 'GET', `userprofile/${encodeURIComponent(shopper.email)}`)).status).toBe(200);

    await password.fill(shopper.password);
    await remove.click();
    await confirmDialog(page).getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toastSaying(page, messages.accountDeleted)).toBeVisible();
    await expect(header(page).getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

    // The unpaid order's units are back; the account cannot sign in any more.
    expect(await stock()).toBe(47);
    await expectLoginRefused(page, shopper);

    // The shop's books: the admin still has the paid order, without the buyer's name, address or phone.
    const admin = await browser.newContext();
    const adminPage = await admin.newPage();
    await loginHydrated(adminPage, DEMO_ADMIN, '/dashboard/manageallproducts');
    await expect(adminPage.getByRole('heading', { level: 1, name: 'Manage All Orders' })).toBeVisible();
    const row = rowWith(adminPage, shopper.email);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Pending');
    await expect(row).toContainText('None');
    const kept = await apiWith(await demoAdminToken(), 'GET', `booking/${paid.id}`);
    expect(kept.data).toMatchObject({
      payment: 'paid',
      userName: messages.deletedCustomer,
      address: messages.deletedCustomer,
      phone: '',
    });
    expect((await apiWith(await demoAdminToken(), 'GET', `booking/${unpaid.id}`)).status).toBe(404);
    await admin.close();
  });

  test('a Google account: its password is managed by Google, and it deletes itself by confirming with Google', async ({
    page,
  }) => {
    const email = uniqueEmail('google-leaver');
    await page.goto('/login?from=%2Fdashboard');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(passwordPanel(page)).toContainText(messages.passwordManagedByGoogle);
    await expect(passwordPanel(page).getByLabel('Current password')).toHaveCount(0);
    await expect(dangerZone(page).getByLabel('Confirm with your password')).toHaveCount(0);

    await dangerZone(page).getByRole('button', { name: 'Delete my account' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toastSaying(page, messages.accountDeleted)).toBeVisible();
    const users = await apiWith<string[]>(await demoAdminToken(), 'GET', 'allusers');
    expect(JSON.stringify(users.data)).not.toContain(email);
  });

  test("the shop's owner is refused with a clear message and stays signed in", async ({ page }) => {
    await loginHydrated(page, DEMO_ADMIN, '/dashboard');
    const zone = dangerZone(page);
    await expect(zone).toContainText('cannot delete their account here');
    await zone.getByLabel('Confirm with your password').fill(DEMO_ADMIN.password);
    await zone.getByRole('button', { name: 'Delete my account' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(zone.getByText(messages.ownerCannotDeleteAccount)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: `Hello, ${DEMO_ADMIN.name}` })).toBeVisible();
  });

  test('the Profile screen at 390 and 1280 px, light and dark: no sideways scroll, no axe violations (screenshots)', async ({
    page,
  }) => {
    test.slow(); // several sign-ins and screens on a shared machine
    const shopper = await newAccount('Sam Screens');
    await loginHydrated(page, shopper, '/dashboard');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(dangerZone(page).getByRole('button', { name: 'Delete my account' })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({ path: `test-results/account-profile-${colorScheme}-${width}.png`, fullPage: true });
      }
      await expectNoAxeViolations(page);
    }
    // With errors showing, too.
    await passwordPanel(page).getByRole('button', { name: 'Change password' }).click();
    await dangerZone(page).getByRole('button', { name: 'Delete my account' }).click();
    await expect(dangerZone(page).getByText(messages.currentPasswordRequired)).toBeVisible();
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: 'test-results/account-profile-errors-dark-390.png', fullPage: true });
    await expectNoAxeViolations(page);
  });
});
