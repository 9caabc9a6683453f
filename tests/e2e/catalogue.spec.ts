// Issue 14, catalogue and search: every tool browsable 24 a page (links work without JavaScript),
// sorted and filtered in the browser, and found from the header's search box, live within 60 s.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CATALOGUE_PAGE_SIZE } from '../../src/lib/catalogue';
import { SEARCH_BASE_PATH } from '../../src/lib/search';
import { adminApiToken, expectNoAxeViolations, liveTools, pageErrors, type ToolJson } from './fixtures';

const FRESH_WITHIN_MS = 60_000;

let token: string;
let origin: string;
const added: string[] = [];
const bearer = () => ({ authorization: `Bearer ${token}`, origin });

async function addTool(request: APIRequestContext, data: Partial<ToolJson>): Promise<string> {
  const response = await request.post('/api/tools', {
    headers: bearer(),
    data: {
      description: 'A forged hand tool added by the catalogue test.',
      price: 20,
      minimumOrderQuantity: 5,
      availableQuantity: 100,
      img: '/images/tools/milled-face-framing-hammer.svg',
      ...data,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { insertedId } = (await response.json()) as { insertedId: string };
  added.push(insertedId);
  return insertedId;
}

test.beforeAll(async ({ request, baseURL }) => {
  token = await adminApiToken(request);
  origin = new URL(baseURL!).origin;
  // Enough tools for a second page, with prices out of order and one below its minimum.
  const have = (await liveTools(request)).length;
  const extra = Math.max(0, CATALOGUE_PAGE_SIZE + 6 - have);
  for (let i = 0; i < extra; i++) {
    await addTool(request, {
      name: `Catalogue Test Tool ${i}`,
      price: 10 + ((i * 37) % 90) + 0.25,
      availableQuantity: i === 0 ? 2 : 100,
    });
  }
});

test.afterAll(async ({ request }) => {
  for (const id of added) await request.delete(`/api/tools/dlt/${id}`, { headers: bearer() });
});

/** The catalogue items of the page, in the order shown, with what the cards say. */
async function shownItems(page: Page) {
  return page.locator('[data-catalogue-list] > li:visible').evaluateAll((items) =>
    items.map((li) => ({
      price: Number((li as HTMLElement).dataset.price),
      inStock: (li as HTMLElement).dataset.inStock === '1',
      href: li.querySelector('a')!.getAttribute('href')!,
    })),
  );
}

test('the catalogue: header link, 24 a page, page 2 by a real link, sorted by price and filtered in the browser', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const errors = pageErrors(page);
  const tools = await liveTools(request);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools', exact: true }).click();
  await expect(page).toHaveURL(/\/tools\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Tools');
  await expect(page.locator('main').getByRole('article')).toHaveCount(CATALOGUE_PAGE_SIZE);
  await expect(page.locator('main').getByRole('article').first()).toContainText(tools[0].name);
  await expect(page.getByText(`Tools 1–24 of ${tools.length}`)).toBeVisible();

  const pager = page.getByRole('navigation', { name: 'Catalogue pages' });
  await pager.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/tools\/page\/2\/?$/);
  await expect(pager.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  const secondPage = tools.slice(CATALOGUE_PAGE_SIZE, 2 * CATALOGUE_PAGE_SIZE);
  await expect(page.locator('main').getByRole('article')).toHaveCount(secondPage.length);

  // Sorting asks the server nothing: no document or fetch request while the order changes.
  const requests: string[] = [];
  page.on('request', (r) => {
    if (['document', 'fetch', 'xhr'].includes(r.resourceType())) requests.push(r.url());
  });
  await page.getByLabel('Sort by').selectOption({ label: 'Price: low to high' });
  const ascending = await shownItems(page);
  expect(ascending.map((i) => i.price)).toEqual([...ascending.map((i) => i.price)].sort((a, b) => a - b));
  expect(ascending.map((i) => i.href).sort()).toEqual(secondPage.map((t) => `/tools/${t._id}`).sort());
  await page.getByLabel('Sort by').selectOption({ label: 'Price: high to low' });
  const descending = await shownItems(page);
  expect(descending.map((i) => i.price)).toEqual([...descending.map((i) => i.price)].sort((a, b) => b - a));
  await page.getByLabel('In stock only').check();
  const inStock = await shownItems(page);
  expect(inStock.every((i) => i.inStock)).toBe(true);
  expect(inStock.length).toBe(secondPage.filter((t) => t.availableQuantity >= t.minimumOrderQuantity).length);
  expect(requests).toEqual([]);
  // The view is in the URL and the page links carry it.
  await expect(page).toHaveURL(/\?sort=price-desc&stock=1$/);
  await expect(pager.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/tools?sort=price-desc&stock=1');
  await pager.getByRole('link', { name: 'Previous' }).click();
  await expect(page.getByLabel('Sort by')).toHaveValue('price-desc');
  const firstPage = await shownItems(page);
  expect(firstPage.map((i) => i.price)).toEqual([...firstPage.map((i) => i.price)].sort((a, b) => b - a));
  expect(errors).toEqual([]);

  // Without JavaScript: the pages link to each other and list newest first; no controls shown.
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const plain = await noJs.newPage();
  await plain.goto('/tools');
  await expect(plain.getByLabel('Sort by')).toBeHidden();
  await plain.getByRole('navigation', { name: 'Catalogue pages' }).getByRole('link', { name: 'Page 2' }).click();
  await expect(plain).toHaveURL(/\/tools\/page\/2\/?$/);
  await expect(plain.locator('main').getByRole('article').first()).toContainText(secondPage[0].name);
  // Page 1 has one address; a page past the last is not found; "page" is not a tool id.
  expect((await plain.goto('/tools/page/1'))?.url()).toMatch(/\/tools\/?$/);
  expect((await plain.goto('/tools/page/999'))?.status()).toBe(404);
  expect((await plain.goto('/tools/page'))?.status()).toBe(404);
  // The tool page's breadcrumb leads back here.
  await plain.goto(`/tools/${tools[0]._id}`);
  await plain.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Our Tools' }).click();
  await expect(plain).toHaveURL(/\/tools\/?$/);
  await noJs.close();
});

/** Lower case, accents dropped, split on anything that is not a letter or digit. */
const searchWords = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** A word of one tool's description that no other tool has (so the search has one answer to find). */
function uniqueWord(tools: ToolJson[]): { tool: ToolJson; word: string } {
  const wordsOf = (t: ToolJson) => new Set([...searchWords(t.name), ...searchWords(t.description)]);
  const all = tools.map(wordsOf);
  for (const [i, tool] of tools.entries()) {
    const word = searchWords(tool.description).find(
      (w) => w.length > 5 && all.every((words, j) => j === i || ![...words].some((o) => o.startsWith(w))),
    );
    if (word) return { tool, word };
  }
  throw new Error('no tool has a description word of its own');
}

test('search: the box loads its code on first use; a description word finds the tool, opened by keyboard and by click', async ({
  page,
  request,
}) => {
  const errors = pageErrors(page);
  const { tool, word } = uniqueWord(await liveTools(request));
  const loads: string[] = [];
  page.on('request', (r) => loads.push(new URL(r.url()).pathname));
  await page.goto('/blogs');
  await page.waitForLoadState('networkidle');
  expect(loads.filter((p) => p.startsWith(SEARCH_BASE_PATH))).toEqual([]);

  // "/" focuses the box; typing shows the matches; arrows and Enter open one.
  await page.keyboard.press('/');
  const box = page.getByRole('combobox', { name: 'Search tools' });
  await expect(box).toBeFocused();
  await box.pressSequentially(word.slice(0, -1), { delay: 20 });
  const option = page.getByRole('option', { name: new RegExp(tool.name) });
  await expect(option).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  // Pagefind's search API and the live index's entry file came with the first search.
  expect(loads).toContain(`${SEARCH_BASE_PATH}pagefind.js`);
  expect(loads).toContain(`${SEARCH_BASE_PATH}pagefind-entry.json`);
  // The popup's stylesheet came with the code, not with the page.
  await expect(page.locator('.search-popup')).toHaveCSS('position', 'absolute');
  await page.keyboard.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
  // The tool page itself sends a signed-out shopper on to sign in, so the navigation is what is checked.
  const opened = async () => {
    await page.waitForRequest((r) => r.isNavigationRequest() && new RegExp(`/tools/${tool._id}/?$`).test(r.url()));
    await page.waitForURL((url) => url.pathname === '/login');
  };
  let navigation = opened();
  await page.keyboard.press('Enter');
  await navigation;

  // By mouse, from the catalogue; Escape closes the list; nothing found says so.
  await page.goto('/tools');
  await box.click();
  await box.fill(word);
  navigation = opened();
  await page.getByRole('option', { name: new RegExp(tool.name) }).click();
  await navigation;
  await page.goto('/tools');
  await box.click();
  await box.fill('zzqxnothing');
  await expect(page.getByText('No tools match “zzqxnothing”.').first()).toBeVisible();
  await box.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  expect(errors).toEqual([]);
});

test('a shopper who types in the search box before the page scripts ran still gets the matches', async ({ page }) => {
  // The page's scripts start after its first paint: hold them until the shopper is in the box.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/SearchBox[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/tools', { waitUntil: 'domcontentloaded' });
  const box = page.getByRole('combobox', { name: 'Search tools' });
  await box.click();
  await box.fill('hammer');
  release();
  await expect(page.getByRole('option').first()).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
});

test('axe: the catalogue, and the search box open with results', async ({ page }) => {
  await page.goto('/tools/page/2');
  await expectNoAxeViolations(page);
  await page.goto('/tools');
  await expectNoAxeViolations(page);
  const box = page.getByRole('combobox', { name: 'Search tools' });
  await box.click();
  await box.fill('hammer');
  await expect(page.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expectNoAxeViolations(page);
});

test('a tool added through the API is in the catalogue and findable within 60 s, and leaves both once deleted', async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const name = `Catalogue Fresh Mallet ${stamp}`;
  const word = `quenchforged${stamp}`;
  const id = await addTool(request, { name, description: `A rubber mallet, ${word} steel core.` });
  const addedAt = Date.now();
  const inCatalogue = async () => {
    await page.goto('/tools', { waitUntil: 'domcontentloaded' });
    return page.locator(`main a[href="/tools/${id}"]`).count();
  };
  const found = async () => {
    await page.goto('/myportfolio');
    const box = page.getByRole('combobox', { name: 'Search tools' });
    await box.click();
    await box.fill(word);
    await expect(page.getByText(/tools? found|No tools match/).first()).toBeAttached();
    return page.getByRole('option', { name: new RegExp(name) }).count();
  };
  // Routing turns the browser's HTTP cache off: each poll sees what the server serves now (a browser
  // may reuse a catalogue page for CATALOGUE_CACHE_CONTROL's few seconds, well inside the window).
  await page.context().route('**/*', (route) => route.continue());
  await expect.poll(inCatalogue, { timeout: FRESH_WITHIN_MS, intervals: [1000, 2000, 5000] }).toBe(1);
  await expect.poll(found, { timeout: FRESH_WITHIN_MS, intervals: [1000, 2000, 5000] }).toBe(1);
  expect(Date.now() - addedAt).toBeLessThan(FRESH_WITHIN_MS);

  const deleted = await request.delete(`/api/tools/dlt/${id}`, { headers: bearer() });
  expect(deleted.status(), await deleted.text()).toBe(200);
  const deletedAt = Date.now();
  await expect.poll(inCatalogue, { timeout: FRESH_WITHIN_MS, intervals: [1000, 2000, 5000] }).toBe(0);
  await expect.poll(found, { timeout: FRESH_WITHIN_MS, intervals: [1000, 2000, 5000] }).toBe(0);
  expect(Date.now() - deletedAt).toBeLessThan(FRESH_WITHIN_MS);
});
