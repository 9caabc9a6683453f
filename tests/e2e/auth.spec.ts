import { expect, test } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { DEMO_ADMIN, DEMO_SHOPPER, login, oobCodes, uniqueEmail } from './fixtures';

const header = (page: import('@playwright/test').Page) => page.getByRole('navigation', { name: 'Main' });

test.describe('sign-in and the session', () => {
  test('sign up sends a verification mail, sets the name and signs the user in', async ({ page }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Rafi Karim');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret-123');
    await page.getByLabel('Confirm password').fill('secret-123');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL('/');
    await expect(header(page).getByText('Rafi Karim')).toBeVisible();
    await expect(header(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(header(page).getByRole('link', { name: 'Login' })).toBeHidden();
    await expect.poll(async () => (await oobCodes(email)).some((c) => c.requestType === 'VERIFY_EMAIL')).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();

    // Sign Out reloads the home page; wait for that load before reading storage.
    await Promise.all([page.waitForEvent('load'), header(page).getByRole('button', { name: 'Sign Out' }).click()]);
    await expect(header(page).getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  });

  test('signup validation messages', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('123');
    await page.getByLabel('Confirm password').fill('456');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText(messages.nameRequired)).toBeVisible();
    await expect(page.getByText(messages.invalidEmail, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.passwordTooShort)).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText(messages.passwordsDontMatch)).toBeVisible();
  });

  test('an existing email gets its own message', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Sam Again');
    await page.getByLabel('Email').fill(DEMO_SHOPPER.email);
    await page.getByLabel('Password', { exact: true }).fill('secret-123');
    await page.getByLabel('Confirm password').fill('secret-123');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText(messages.authEmailInUse)).toBeVisible();
  });

  test('login validation and a wrong password', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('nope');
    await page.getByLabel('Password', { exact: true }).fill('123');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText(messages.invalidEmail, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.passwordTooShort)).toBeVisible();

    await page.getByLabel('Email').fill(DEMO_SHOPPER.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText(messages.authWrongPassword)).toBeVisible();
    await expect(header(page).getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('forget password sends a reset mail', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO_SHOPPER.email);
    await page.getByRole('button', { name: 'Forget password?' }).click();
    await expect(page.getByText(messages.resetEmailSent, { exact: true })).toBeVisible();
    await expect
      .poll(async () => (await oobCodes(DEMO_SHOPPER.email)).some((c) => c.requestType === 'PASSWORD_RESET'))
      .toBe(true);
  });

  test('Google sign-in through the emulator', async ({ page }) => {
    const email = uniqueEmail('google');
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL('/');
    await expect(header(page).getByRole('button', { name: 'Sign Out' })).toBeVisible();
  });

  test('a guard sends a visitor to login and back to where they came from', async ({ page }) => {
    await page.goto('/dashboard/myorders');
    await expect(page).toHaveURL(/\/login\?from=%2Fdashboard%2Fmyorders/);
    await page.getByLabel('Email').fill(DEMO_SHOPPER.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_SHOPPER.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL('/dashboard/myorders');
    await expect(page.getByRole('heading', { name: /My Orders/ })).toBeVisible();
  });

  // ?from= values that would leave the site after sign-in (backslash, protocol-relative, tab, absolute, script).
  for (const from of [
    '/%5Cevil.example',
    '//evil.example',
    '/\\evil.example',
    '/%09/evil.example',
    'https://evil.example',
    'javascript:alert(1)',
  ]) {
    test(`signing in from /login?from=${from} stays on the store`, async ({ page, baseURL }) => {
      await page.goto(`/login?from=${from}`);
      await page.getByLabel('Email').fill(DEMO_SHOPPER.email);
      await page.getByLabel('Password', { exact: true }).fill(DEMO_SHOPPER.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      expect(page.url()).toBe(`${baseURL}/`);
      await expect(header(page).getByRole('button', { name: 'Sign Out' })).toBeVisible();
    });
  }

  test('signing in from a page of the store goes back to it, query and hash kept', async ({ page, baseURL }) => {
    await login(page, DEMO_SHOPPER, '/blogs?from=here#top');
    expect(page.url()).toBe(`${baseURL}/blogs?from=here#top`);
  });

  test('the session survives a reload and shows on static pages', async ({ page }) => {
    await login(page, DEMO_SHOPPER);
    await page.goto('/blogs');
    await expect(header(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(header(page).getByText('Sam Shopper')).toBeVisible();
    await page.goto('/dashboard');
    await page.reload();
    await expect(page.getByRole('link', { name: 'My Orders' })).toBeVisible();
  });

  test('the admin guard throws a non-admin out', async ({ page }) => {
    await login(page, DEMO_SHOPPER);
    await page.goto('/dashboard/allusers');
    await expect(page).toHaveURL(/\/login/);
    await expect(header(page).getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('an admin sees the admin menu, not the shopper items', async ({ page }) => {
    await login(page, DEMO_ADMIN);
    await page.goto('/dashboard');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(menu.getByRole('link', { name: 'Make Admin' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Manage All Orders' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'My Orders' })).toBeHidden();
    await expect(menu.getByRole('link', { name: 'Add a Review' })).toBeHidden();
  });

  test('an expired access token is renewed silently once', async ({ page }) => {
    await login(page, DEMO_SHOPPER);
    await page.evaluate(() => localStorage.setItem('accessToken', 'expired.or.forged'));
    await page.goto('/dashboard/myorders');
    // The heading shows while the list loads; its count appears once the retried call answered.
    await expect(page.getByRole('heading', { name: /^My Orders: \d+$/ })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).not.toBe('expired.or.forged');
  });
});
