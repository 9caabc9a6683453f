// Issue 28, the content readers see: the footer's pages, the blog's tags, reading time, feed and
// drafts (left out of the built store, its sitemap and its feed).
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_STORE_ENV } from '../../playwright.config';
import { blogPosts, expectNoAxeViolations, VIEWPORTS } from './fixtures';

const FOOTER = {
  Services: ['Bulk orders', 'Custom branding', 'Tool repair', 'Delivery'],
  Company: ['About us', 'Contact', 'Careers', 'Press kit'],
  Legal: ['Terms of use', 'Privacy policy', 'Cookie policy'],
};

test("every footer link leads to its own page, with the spec's titles and labels kept", async ({ page }) => {
  await page.goto('/blogs');
  const footer = page.getByRole('contentinfo');
  const hrefs: string[] = [];
  for (const [title, labels] of Object.entries(FOOTER)) {
    const column = footer.getByRole('navigation', { name: title });
    await expect(column.getByRole('heading', { name: title })).toBeVisible();
    await expect(column.getByRole('link')).toHaveText(labels);
    for (const label of labels) hrefs.push((await column.getByRole('link', { name: label }).getAttribute('href'))!);
  }
  expect(new Set(hrefs).size).toBe(11);
  // One Markdown file per page, none without a link.
  const files = readdirSync('src/content/pages').map((f) => `/${f.replace(/\.md$/, '')}`);
  expect([...hrefs].sort()).toEqual(files.sort());
  for (const href of hrefs) {
    const response = await page.goto(href);
    expect(response?.status(), href).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
  }
});

test('the privacy page says what the store keeps and for how long', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy policy');
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['What', 'Why', 'How long']);
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
  for (const kept of ['Your account', 'Your orders', 'Your reviews', 'Server logs']) {
    const row = rows.find(([what]) => what.startsWith(kept));
    expect(row, kept).toBeDefined();
    expect(row![2].length, `how long ${kept} is kept`).toBeGreaterThan(3);
  }
  await expect(page.getByRole('listitem').filter({ hasText: 'Delete your account' })).toBeVisible();
  for (const { viewport } of VIEWPORTS) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  await expectNoAxeViolations(page);
});

test('posts show their reading time and tags; a tag has its page; /blogs still lists the six posts in order', async ({
  page,
}) => {
  const posts = blogPosts();
  expect(posts).toHaveLength(6);
  await page.goto('/blogs');
  const list = page.getByRole('list', { name: 'Blog posts' });
  await expect(list.getByRole('heading', { level: 2 })).toHaveText(posts.map((p) => p.title));
  await expect(list.getByText(/\d+ min read/)).toHaveCount(6);
  await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    'href',
    '/blogs/rss.xml',
  );
  await expect(page.getByRole('link', { name: 'Follow the blog (RSS feed)' })).toHaveAttribute(
    'href',
    '/blogs/rss.xml',
  );

  await page.goto('/blogs/react-performance');
  await expect(page.getByText(/\d+ min read/)).toBeVisible();
  await page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: '#react' }).click();
  await expect(page).toHaveURL(/\/blogs\/tags\/react$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tagged “react”');
  const tagged = page.getByRole('list', { name: 'Posts tagged react' }).getByRole('heading', { level: 2 });
  await expect(tagged).toHaveText(
    posts
      .filter((p) => ['react-performance', 'react-state-management', 'why-not-set-state-directly'].includes(p.slug))
      .map((p) => p.title),
  );
  await expectNoAxeViolations(page);
});

test('the feed: valid RSS of the six published posts, newest first, with absolute links; no draft anywhere', async ({
  page,
  request,
  baseURL,
}) => {
  const feed = await request.get('/blogs/rss.xml');
  expect(feed.status()).toBe(200);
  const xml = await feed.text();
  await page.goto('/blogs');
  const items = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.querySelector('parsererror')) throw new Error('the feed is not well-formed XML');
    return [...doc.querySelectorAll('channel > item')].map((item) => ({
      title: item.querySelector('title')!.textContent,
      link: item.querySelector('link')!.textContent!,
      pubDate: item.querySelector('pubDate')!.textContent!,
    }));
  }, xml);
  const posts = blogPosts();
  expect(items).toHaveLength(posts.length);
  const newestFirst = [...posts].sort((a, b) => b.pubDate.getTime() - a.pubDate.getTime());
  expect(items.map((i) => i.title)).toEqual(newestFirst.map((p) => p.title));
  for (const item of items) {
    const url = new URL(item.link); // absolute
    expect(url.pathname).toMatch(/^\/blogs\/[a-z-]+$/);
    expect(url.origin).toMatch(/^https?:\/\//);
    expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
  }
  // The draft in src/content/blogs is in no page, feed or sitemap of the built store.
  const draft = 'choosing-a-hammer';
  expect(xml).not.toContain(draft);
  expect((await request.get(`/blogs/${draft}`)).status()).toBe(404);
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).not.toContain(draft);
  for (const path of ['/privacy', '/terms', '/blogs/tags/react']) expect(sitemap).toContain(`${path}</loc>`);
  expect(baseURL).toBeTruthy();
});

test("each post's Open Graph image: its page points at it (absolute), and it is a 1200×630 PNG", async ({
  page,
  request,
}) => {
  for (const post of blogPosts()) {
    await page.goto(`/blogs/${post.slug}`);
    const image = await page.locator('head meta[property="og:image"]').getAttribute('content');
    const url = new URL(image!); // absolute
    expect(url.pathname).toBe(`/blogs/${post.slug}/og.png`);
    await expect(page.locator('head meta[property="og:title"]')).toHaveAttribute('content', post.title);
    const png = await request.get(url.pathname);
    expect(png.status()).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    const bytes = await png.body();
    // The PNG signature, then IHDR's width and height.
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
  }
});

test('a cover image is responsive and reserves its space: srcset, sizes, width and height, its alt text', async ({
  page,
}) => {
  await page.goto('/blogs/find-products-by-name');
  const cover = page.getByRole('img', {
    name: 'Two claw hammers crossed over a glowing forge, above a hazard-striped workbench',
  });
  await expect(cover).toBeVisible();
  const attrs = await cover.evaluate((img: HTMLImageElement) => ({
    srcset: img.srcset,
    sizes: img.sizes,
    width: img.getAttribute('width'),
    height: img.getAttribute('height'),
    loaded: img.complete && img.naturalWidth > 0,
  }));
  expect(attrs.srcset.split(',').length).toBeGreaterThanOrEqual(3);
  expect(attrs.sizes).toContain('768px');
  expect(Number(attrs.width) / Number(attrs.height)).toBeCloseTo(2, 1);
  expect(attrs.loaded).toBe(true);
  await expectNoAxeViolations(page);
});

/** Every file under a directory. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });

test('the built store has no content editor: none of its addresses answers, none of its code is built', async ({
  request,
}) => {
  // What `npm run edit` serves (keystatic.config.ts), the update call with the header it requires.
  for (const url of [
    '/keystatic',
    '/keystatic/collection/blogs',
    '/keystatic/singleton/portfolio',
    '/api/keystatic/tree',
  ]) {
    const response = await request.get(url, { headers: { 'no-cors': '1' } });
    expect(response.status(), url).toBe(404);
  }
  const update = await request.post('/api/keystatic/update', {
    headers: { 'no-cors': '1', 'content-type': 'application/json' },
    data: { additions: [], deletions: [] },
  });
  expect(update.status()).toBe(404);
  const build = realpathSync(E2E_STORE_ENV.DIST_DIR);
  const mentions = filesUnder(build).filter((file) => /keystatic/i.test(readFileSync(file, 'latin1')));
  expect(mentions).toEqual([]);
});
