import { expect, test } from '@playwright/test';
import { messages } from '../../src/lib/messages';

test.describe('static pages', () => {
  test('home has the header, every section in order, and the footer', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Blogs' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'My Portfolio' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeHidden();
    const headings = await page.locator('main h2').allTextContents();
    const order = ['Our Tools', 'Trusted by builders everywhere', 'Our Reviews', 'Our Latest Construction', 'Get In Touch'];
    expect(headings.filter((h) => order.includes(h))).toEqual(order);
    await expect(page.getByRole('link', { name: /^Order Now/ })).toHaveCount(6);
    for (const title of ['Services', 'Company', 'Legal']) await expect(page.getByRole('contentinfo').getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('2022');
  });

  test('an unknown path shows the 404 card with status 404', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: messages.notFound })).toBeVisible();
  });
});
