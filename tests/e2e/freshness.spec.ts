// Issue 4 "Never stale": an admin's product changes reach the prebuilt storefront within 60 s, with
// no rebuild and no restart. The admin acts through the API, as the dashboard does.
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { DEMO_SHOPPER, adminApiToken, liveTools, login, pageErrors, type ToolJson } from './fixtures';

const FRESH_WITHIN_MS = 60_000;

test.describe.configure({ mode: 'serial' });

let token: string;
let origin: string;
test.beforeAll(async ({ request, baseURL }) => {
  token = await adminApiToken(request);
  origin = new URL(baseURL!).origin;
});

/** What the dashboard's fetch sends: our token, and the Origin a browser adds (Astro checks it). */
const bearer = () => ({ authorization: `Bearer ${token}`, origin });

/** The home page's tool grid (a server island) lists a link to this tool. */
async function homeLinksTo(page: Page, toolId: string): Promise<boolean> {
  const island = page.waitForResponse((r) => r.url().includes('/_server-islands/ToolsGrid'));
  await page.goto('/');
  expect((await island).ok()).toBe(true);
  const grid = page.locator('#tools');
  await expect(grid.getByRole('article').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  return (await grid.locator(`a[href="/tools/${toolId}"]`).count()) > 0;
}

/** The paths the sitemap lists now. */
async function sitemapPaths(request: APIRequestContext): Promise<string[]> {
  const xml = await (await request.get('/sitemap.xml')).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
}

/** A tool page as the static HTML serves it (scripts off: no login redirect). */
async function toolPage(browser: Browser, baseURL: string | undefined, toolId: string) {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const response = await page.goto(`/tools/${toolId}`);
  return { page, status: response?.status(), close: () => context.close() };
}

/** The status a fresh visitor gets at a tool's URL. */
async function toolPageStatus(...args: Parameters<typeof toolPage>): Promise<number | undefined> {
  const { status, close } = await toolPage(...args);
  await close();
  return status;
}

test('a product an admin adds shows on home and at its URL, and answers 404 once deleted', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const name = `Ironcrest Test Hammer ${Date.now()}`;
  const added = await request.post('/api/tools', {
    headers: bearer(),
    data: {
      name,
      description: 'A 20 oz framing hammer added by the freshness test, after the site was built.',
      price: 41.5,
      minimumOrderQuantity: 10,
      availableQuantity: 250,
      img: '/images/tools/milled-face-framing-hammer.svg',
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const { insertedId: id } = (await added.json()) as { insertedId: string };
  const addedAt = Date.now();

  // Home: the newest tool leads the grid.
  await expect.poll(() => homeLinksTo(page, id), { timeout: FRESH_WITHIN_MS, intervals: [500, 1000, 2000] }).toBe(true);
  const card = page.locator('#tools').getByRole('article').first();
  await expect(card.getByRole('heading', { name })).toBeVisible();
  await expect(card).toContainText('$41.50');

  // Its page renders on demand (the fallback route; no file was built for it).
  await expect.poll(() => toolPageStatus(browser, baseURL, id), { timeout: FRESH_WITHIN_MS }).toBe(200);
  const fresh = await toolPage(browser, baseURL, id);
  await expect(fresh.page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(fresh.page.locator('[data-live-stock]')).toHaveText('250');
  await expect(fresh.page.locator('p[data-price]')).toContainText('$41.50');
  await fresh.close();
  expect(await sitemapPaths(request)).toContain(`/tools/${id}`);
  expect(Date.now() - addedAt).toBeLessThan(FRESH_WITHIN_MS);

  // Signed in, the on-demand page hydrates the purchase form under its CSP, like a prebuilt one.
  const shopper = await browser.newPage({ baseURL });
  const errors = pageErrors(shopper);
  await login(shopper, DEMO_SHOPPER, `/tools/${id}`);
  await expect(shopper).toHaveURL(new RegExp(`/tools/${id}/?$`));
  await expect(shopper.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(shopper.getByLabel(/quantity/i).first()).toBeVisible();
  expect(errors).toEqual([]);
  await shopper.close();

  // Deleted: its page answers 404 with the 404 card, and home no longer lists it.
  const deleted = await request.delete(`/api/tools/dlt/${id}`, { headers: bearer() });
  expect(deleted.status(), await deleted.text()).toBe(200);
  const deletedAt = Date.now();
  await expect.poll(() => toolPageStatus(browser, baseURL, id), { timeout: FRESH_WITHIN_MS }).toBe(404);
  const gone = await toolPage(browser, baseURL, id);
  await expect(gone.page.getByRole('heading', { level: 1 })).toHaveText(messages.notFound);
  await gone.close();
  await expect.poll(() => homeLinksTo(page, id), { timeout: FRESH_WITHIN_MS }).toBe(false);
  expect(await sitemapPaths(request)).not.toContain(`/tools/${id}`);
  expect(Date.now() - deletedAt).toBeLessThan(FRESH_WITHIN_MS);
});

test('the available quantity shown is live: a restock shows on home and on the prebuilt tool page', async ({
  page,
  request,
}) => {
  const tool = (await liveTools(request))[0];
  const restocked = tool.availableQuantity + 7;
  const restock = (availableQuantity: number) =>
    request.put(`/api/tool/update/${tool._id}`, { headers: bearer(), data: { availableQuantity } });
  const apiStock = async () =>
    ((await (await request.get(`/api/tools/${tool._id}`)).json()) as ToolJson).availableQuantity;
  // Read twice first: the server then answers this URL from memory, and must drop that copy on the write.
  expect(await apiStock()).toBe(tool.availableQuantity);
  expect(await apiStock()).toBe(tool.availableQuantity);
  expect((await restock(restocked)).status()).toBe(200);
  try {
    expect(await apiStock()).toBe(restocked);
    expect((await liveTools(request)).find((t) => t._id === tool._id)?.availableQuantity).toBe(restocked);
    await page.goto('/');
    const card = page
      .locator('#tools')
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: tool.name }) });
    await expect(
      card.locator('dt').filter({ hasText: 'Available' }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText(String(restocked));

    // The prebuilt page holds the build-time number; the purchase island replaces it with the live one.
    await login(page, DEMO_SHOPPER, `/tools/${tool._id}`);
    await expect(page).toHaveURL(new RegExp(`/tools/${tool._id}/?$`));
    await expect(page.locator('[data-live-stock]')).toHaveText(String(restocked));
  } finally {
    expect((await restock(tool.availableQuantity)).status()).toBe(200);
  }
});

test('a prebuilt tool page answers 404 once its tool is deleted', async ({ browser, request, baseURL }) => {
  // The oldest tool: not on the home page (it shows the newest six), so other tests keep their data.
  const tools = await liveTools(request);
  const oldest = tools[tools.length - 1];
  const before = await toolPage(browser, baseURL, oldest._id);
  expect(before.status).toBe(200);
  await expect(before.page.getByRole('heading', { level: 1 })).toHaveText(oldest.name);
  await before.close();

  const deleted = await request.delete(`/api/tools/dlt/${oldest._id}`, { headers: bearer() });
  expect(deleted.status(), await deleted.text()).toBe(200);
  const after = await toolPage(browser, baseURL, oldest._id);
  expect(after.status).toBe(404);
  await expect(after.page.getByRole('heading', { level: 1 })).toHaveText(messages.notFound);
  await after.close();
});
