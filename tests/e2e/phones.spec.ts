// Issue 24, phones: every screen at 360, 390 and 768 px, signed out, as a shopper and as an admin, in
// light and dark: nothing scrolls sideways, and every action button of the page is on screen and can
// be clicked (nothing covers it). The header has one menu, with every link of the spec's nav and Cart.
import { expect, test, type Page } from '@playwright/test';
import { blogPosts, liveTools, login, DEMO_ADMIN } from './fixtures';
import { createTool, newAccount, placeOrder, type Account } from './dashboard-fixtures';

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

const WIDTHS = [360, 390, 768];

/** Waits for a page (and a dashboard screen's first answers) to settle. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await expect(page.getByText(/^(Loading|Checking|Preparing)\b/)).toHaveCount(0, { timeout: 15_000 });
}

/**
 * Nothing wider than the window, and (with `actions`) every action in the page's main part on screen
 * and clickable. The dark theme changes colours, not sizes: its sweep checks the width only.
 */
async function expectUsable(page: Page, label: string, actions = true) {
  const { scrollWidth, windowWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: page width`).toBeLessThanOrEqual(windowWidth);
  if (!actions) return;
  // Every action in one pass inside the page (a trial click per button cost a round trip each): scrolled
  // to the middle of the window as a click would, then its box against the window's edges, and what is
  // under its centre: the action itself (or its own content), not a badge or a bar laid over it.
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const describe = (el: Element | null) =>
      el
        ? `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} class="${el.getAttribute('class') ?? ''}">`
        : 'nothing';
    for (const action of document.querySelectorAll<HTMLElement>('main button, main a.btn, main input[type="submit"]')) {
      const shown = action.getBoundingClientRect();
      // As Playwright's :visible: a box, and not hidden (visibility, or inside a closed <details>).
      if (!shown.width || !shown.height || !action.checkVisibility({ visibilityProperty: true })) continue;
      const name = action.getAttribute('aria-label') ?? (action.innerText.trim() || action.outerHTML.slice(0, 160));
      action.scrollIntoView({ block: 'center', inline: 'nearest' });
      const box = action.getBoundingClientRect();
      if (box.x < 0) found.push(`"${name}" starts off screen (x ${box.x})`);
      if (box.x + box.width > window.innerWidth + 0.5) found.push(`"${name}" ends off screen (x ${box.x + box.width})`);
      const disabled = (action as HTMLButtonElement).disabled || action.getAttribute('aria-disabled') === 'true';
      if (disabled) continue;
      const under = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      if (!under || !action.contains(under)) found.push(`"${name}" is covered by ${describe(under)}`);
    }
    return found;
  });
  expect(problems, label).toEqual([]);
}

/**
 * Each path at each width: in the light theme every action is checked; then the same page, switched
 * to the dark theme where it stands (the theme follows the system setting live), is checked for width.
 */
async function sweep(page: Page, paths: string[]) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of paths) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(path);
      await settle(page);
      await expectUsable(page, `${path} at ${width} px, light`);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
      await expectUsable(page, `${path} at ${width} px, dark`, false);
    }
  }
}

test('signed out: the storefront at every phone width', async ({ page, request }) => {
  const tool = (await liveTools(request))[0];
  const post = blogPosts()[0];
  await sweep(page, [
    '/',
    '/tools',
    `/tools/${tool._id}`,
    '/blogs',
    `/blogs/${post.slug}`,
    '/myportfolio',
    '/login',
    '/signup',
    '/cart',
    '/no-such-page',
  ]);
});

test('the header has one menu below 1024 px, with every link and the cart', async ({ page }) => {
  for (const width of [360, 768, 1000]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const header = page.getByRole('banner');
    const toggles = header.getByRole('button', { expanded: false }).filter({ hasNot: page.locator('input') });
    await expect(header.getByRole('button', { name: 'Menu', exact: true })).toHaveCount(1);
    await expect(toggles).toHaveCount(1);
    await expect(header.getByRole('link', { name: 'Blogs' })).toBeHidden();
    await header.getByRole('button', { name: 'Menu', exact: true }).click();
    for (const name of ['Home', 'Tools', 'Blogs', 'My Portfolio', 'Login', 'Sign up'])
      await expect(header.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: /^Cart/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(header.getByRole('link', { name: 'Blogs' })).toBeHidden();
  }
});

test.describe('signed in', () => {
  let shopper: Account;
  let unpaid = '';
  let paid = '';
  test.beforeAll(async () => {
    shopper = await newAccount('Phone Shopper With A Rather Long Name', 'phone');
    const toolId = await createTool({ name: `Phone Sweep Hammer ${Date.now()}`, availableQuantity: 500 });
    unpaid = (await placeOrder(shopper, toolId, 3, false)).id;
    paid = (await placeOrder(shopper, toolId, 2, true)).id;
  });

  test('as a shopper: tool page, cart with lines, dashboard, orders and payment', async ({ page, request }) => {
    await login(page, shopper);
    const tools = (await liveTools(request)).filter((t) => t.availableQuantity >= t.minimumOrderQuantity).slice(0, 2);
    // Two tools in the cart, so its lines and total show.
    await page.evaluate(
      (lines) => localStorage.setItem('cart', JSON.stringify(lines)),
      tools.map((t) => ({ toolId: t._id, quantity: t.minimumOrderQuantity, name: t.name, price: t.price })),
    );
    await sweep(page, [
      `/tools/${tools[0]._id}`,
      '/cart',
      '/dashboard',
      '/dashboard/myreview',
      '/dashboard/myorders',
      `/dashboard/payment/${unpaid}`,
      `/dashboard/orders/${paid}`,
    ]);
  });

  test('as an admin: every admin screen', async ({ page }) => {
    await login(page, DEMO_ADMIN);
    // Lists of 8 rows: every kind of row and action shows, without clicking through 50 of each.
    await sweep(page, [
      '/dashboard',
      '/dashboard/allusers?pageSize=8',
      '/dashboard/addproduct',
      '/dashboard/allproduct?pageSize=8',
      '/dashboard/manageallproducts?pageSize=8',
      '/dashboard/settings',
      '/dashboard/discounts',
      '/dashboard/managereviews?pageSize=8',
      '/dashboard/messages?pageSize=8',
      '/dashboard/activity?pageSize=8',
      '/dashboard/emails?pageSize=8',
      '/dashboard/importexport',
      `/dashboard/orders/${paid}`,
    ]);
  });
});
