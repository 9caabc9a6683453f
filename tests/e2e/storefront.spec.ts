// Issue 4, the static storefront: home, blogs, a post, portfolio, a tool page and the 404, at a phone
// and a desktop width, with the spec's texts; the reviews paginator's rules; SEO files; axe-core.
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { BUSINESS_SUMMARY } from '../../src/lib/brand';
import { DEFAULT_REVIEW_PAGE_SIZE, HOME_TOOL_COUNT, REVIEW_PAGE_SIZES } from '../../src/lib/limits';
import { messages } from '../../src/lib/messages';
import { formatCents, toCents } from '../../src/lib/money';
import { GAP, pageCount, pageWindow } from '../../src/lib/pagination';
import {
  DEMO_SHOPPER,
  VIEWPORTS,
  adminApiToken,
  blogPosts,
  expectNoAxeViolations,
  liveTools,
  login,
  pageErrors,
  siteDate,
  type ToolJson,
} from './fixtures';

/** The portfolio the page is built from (its content collection's one entry). */
const portfolio = JSON.parse(
  readFileSync(new URL('../../src/content/portfolio/alex-morgan.json', import.meta.url), 'utf8'),
) as {
  name: string;
  role: string;
  email: string;
  education: { degree: string; school: string }[];
  skills: string[];
  projects: { name: string; url: string }[];
  links: { label: string; url: string }[];
};

interface ReviewsPage {
  services: { _id: string; name: string; Messege: string; ratings: number }[];
  count: number;
}

const price = (tool: ToolJson) => formatCents(toCents(tool.price));
const posts = blogPosts();

/** The value next to a label in a definition list. */
const valueOf = (scope: Locator, label: string) =>
  scope.locator('dt').filter({ hasText: label }).locator('xpath=following-sibling::dd[1]');

/** Logs in at a desktop width (the phone header keeps Sign Out in the collapsed menu), then goes back. */
async function loginAs(page: Page, from: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, DEMO_SHOPPER, from);
  if (size) await page.setViewportSize(size);
}

/** Every page has one h1, a title, a meta description, the header, main and footer landmarks. */
async function expectPageBasics(page: Page) {
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{20,}/);
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
}

/** The header's links: visible at once on a desktop, behind its one menu button on a phone. */
async function expectHeader(page: Page, phone: boolean) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = nav.getByRole('button', { name: 'Menu', exact: true });
  if (phone) {
    await expect(nav.getByRole('link', { name: 'Blogs' })).toBeHidden();
    await menu.click();
  } else await expect(menu).toBeHidden();
  for (const name of ['Home', 'Blogs', 'My Portfolio', 'Login'])
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^Cart/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeHidden();
  if (phone) await menu.click();
}

async function expectFooter(page: Page) {
  const footer = page.getByRole('contentinfo');
  for (const title of ['Services', 'Company', 'Legal'])
    await expect(footer.getByRole('heading', { name: title })).toBeVisible();
  await expect(footer).toContainText('Copyright © 2022');
}

for (const { name: width, viewport } of VIEWPORTS) {
  const phone = width === 'phone';

  test.describe(`storefront at ${width} width (${viewport.width}px)`, () => {
    test.use({ viewport });

    test('home: hero, Our Tools, business summary, Our Reviews, gallery and Get In Touch, in order', async ({
      page,
      request,
    }) => {
      const errors = pageErrors(page);
      const tools = (await liveTools(request)).slice(0, HOME_TOOL_COUNT);
      await page.goto('/');
      await expect(page).toHaveTitle('Ironcrest Tools');
      await expectPageBasics(page);
      await expectHeader(page, phone);

      // 1. Hero: headline and tagline about legendary tools and exceptional value; a sized, preloaded image.
      await expect(page.getByRole('heading', { level: 1 })).toContainText(/legendary tools/i);
      await expect(page.getByText(/exceptional value/i)).toBeVisible();
      const hero = page.locator('main img').first();
      await expect(hero).toHaveAttribute('alt', /\S/);
      await expect(hero).toHaveAttribute('width', /\d+/);
      await expect(page.locator('link[rel="preload"][as="image"]')).toHaveAttribute(
        'href',
        (await hero.getAttribute('src')) ?? '',
      );

      // The sections, in the spec's order.
      const order = [
        'Our Tools',
        'Trusted by builders everywhere',
        'Our Reviews',
        'Our Latest Construction',
        'Get In Touch',
      ];
      const headings = await page.locator('main h2').allTextContents();
      expect(headings.map((h) => h.trim()).filter((h) => order.includes(h))).toEqual(order);

      // 2. Our Tools: the newest six, each with image, name, excerpt, minimum, available, price and Order Now.
      const grid = page.locator('#tools');
      const cards = grid.getByRole('article');
      await expect(cards).toHaveCount(tools.length);
      for (const [i, tool] of tools.entries()) {
        const card = cards.nth(i);
        await expect(card.getByRole('heading', { name: tool.name })).toBeVisible();
        await expect(card.getByRole('img', { name: tool.name })).toBeVisible();
        await expect(card).toContainText(tool.description.slice(0, 40));
        await expect(valueOf(card, 'Minimum order')).toHaveText(String(tool.minimumOrderQuantity));
        await expect(valueOf(card, 'Available')).toHaveText(String(tool.availableQuantity));
        await expect(valueOf(card, 'Price')).toHaveText(price(tool));
        const order = card.getByRole('link', { name: /^Order Now/ });
        await expect(order).toHaveText('Order Now');
        await expect(order).toHaveAttribute('href', `/tools/${tool._id}`);
      }

      // 3. Business summary: 100+ customers, 120M+ annual revenue, 50+ tools.
      const summary = page.locator('section', {
        has: page.getByRole('heading', { name: 'Trusted by builders everywhere' }),
      });
      for (const { value, label } of BUSINESS_SUMMARY) await expect(valueOf(summary, label)).toHaveText(value);
      await expect(summary).toContainText(/100\+.*120M\+.*50\+/s);

      // 4. Our Reviews: the first page is there, each review with name, message and stars as text.
      const reviews = page.getByTestId('reviews').getByRole('listitem');
      await reviews.first().scrollIntoViewIfNeeded();
      await expect(reviews).toHaveCount(DEFAULT_REVIEW_PAGE_SIZE);
      await expect(reviews.first().getByRole('img', { name: /^Rated \d+(\.\d+)? out of 5$/ })).toBeVisible();

      // 5. Our Latest Construction: three photos with alt text.
      const gallery = page.locator('section', { has: page.getByRole('heading', { name: 'Our Latest Construction' }) });
      await expect(gallery.getByRole('img')).toHaveCount(3);
      for (const img of await gallery.getByRole('img').all()) await expect(img).toHaveAttribute('alt', /.{10,}/);

      // 6. Get In Touch: Your Name, Your Email (type email), Your Messege (textarea), Submit.
      await expect(page.getByLabel('Your Name')).toBeVisible();
      await expect(page.getByLabel('Your Email')).toHaveAttribute('type', 'email');
      await expect(page.getByLabel('Your Messege')).toHaveJSProperty('tagName', 'TEXTAREA');
      await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();

      await expectFooter(page);
      expect(errors).toEqual([]);
    });

    test('/blogs: six Q&A entries in order, each with title, author, date, description and a link', async ({
      page,
    }) => {
      const errors = pageErrors(page);
      await page.goto('/blogs');
      await expect(page).toHaveTitle(/^Blogs.* \| Ironcrest Tools$/);
      await expectPageBasics(page);
      await expectHeader(page, phone);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Developer Q&A');
      await expect(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blogs', includeHidden: true }),
      ).toHaveAttribute('aria-current', 'page');

      expect(posts).toHaveLength(6);
      const topics = [
        /performance of a React/i,
        /manage state/i,
        /prototypal inheritance/i,
        /not set the state directly/i,
        /find products by name/i,
        /unit test/i,
      ];
      posts.forEach((post, i) => expect(post.title).toMatch(topics[i]));

      const entries = page.getByRole('list', { name: 'Blog posts' }).getByRole('article');
      await expect(entries).toHaveCount(6);
      for (const [i, post] of posts.entries()) {
        const entry = entries.nth(i);
        await expect(entry.getByRole('heading', { level: 2 })).toHaveText(post.title);
        await expect(entry).toContainText(`By ${post.author}`);
        await expect(entry.locator('time')).toHaveText(siteDate(post.pubDate));
        await expect(entry).toContainText(post.description);
        await expect(entry.getByRole('link', { name: post.title, exact: true })).toHaveAttribute(
          'href',
          `/blogs/${post.slug}`,
        );
        await expect(entry.getByRole('link', { name: `Read the answer: ${post.title}` })).toHaveAttribute(
          'href',
          `/blogs/${post.slug}`,
        );
      }
      await expectFooter(page);
      expect(errors).toEqual([]);
    });

    test('a blog post: title, author, date and the answer with plain code blocks', async ({ page }) => {
      const errors = pageErrors(page);
      const post = posts[0];
      await page.goto('/blogs');
      await page.getByRole('link', { name: post.title, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/blogs/${post.slug}/?$`));
      await expect(page).toHaveTitle(`${post.title} | Ironcrest Tools`);
      await expectPageBasics(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
      await expect(page.getByRole('main')).toContainText(`By ${post.author}`);
      await expect(page.getByRole('main').locator('time')).toHaveText(siteDate(post.pubDate));
      const body = page.locator('.prose-blog');
      await expect(body.getByRole('heading', { level: 2 }).first()).toBeVisible();
      const code = body.locator('pre code').first();
      await expect(code).toContainText('useMemo');
      // No inline colour styles (the CSP would block them); the stylesheet colours code blocks.
      expect(await body.locator('[style]').count()).toBe(0);
      expect(await code.evaluate((el) => getComputedStyle(el.parentElement!).backgroundColor)).not.toBe(
        'rgba(0, 0, 0, 0)',
      );
      await page.getByRole('link', { name: '← All blog posts' }).click();
      await expect(page).toHaveURL(/\/blogs\/?$/);
      expect(errors).toEqual([]);
    });

    test('/myportfolio: name, email, education, skills, three live projects and links', async ({ page }) => {
      const errors = pageErrors(page);
      await page.goto('/myportfolio');
      await expect(page).toHaveTitle(`My Portfolio: ${portfolio.name} | Ironcrest Tools`);
      await expectPageBasics(page);
      await expectHeader(page, phone);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1 })).toHaveText(portfolio.name);
      await expect(main).toContainText(portfolio.role);
      await expect(main.getByRole('link', { name: portfolio.email })).toHaveAttribute(
        'href',
        `mailto:${portfolio.email}`,
      );
      await expect(main.getByRole('heading', { name: 'Education' })).toBeVisible();
      for (const item of portfolio.education) {
        await expect(main).toContainText(item.degree);
        await expect(main).toContainText(item.school);
      }
      const skills = main
        .locator('section', { has: page.getByRole('heading', { name: 'Skills' }) })
        .getByRole('listitem');
      await expect(skills).toHaveText(portfolio.skills);
      expect(portfolio.projects).toHaveLength(3);
      for (const project of portfolio.projects) {
        await expect(main.getByRole('heading', { name: project.name, level: 3 })).toBeVisible();
        await expect(main.getByRole('link', { name: `View live project: ${project.name}` })).toHaveAttribute(
          'href',
          project.url,
        );
      }
      for (const link of portfolio.links)
        await expect(main.getByRole('link', { name: link.label, exact: true })).toHaveAttribute('href', link.url);
      await expect(page.locator('astro-island')).toHaveCount(0); // no React here
      await expectFooter(page);
      expect(errors).toEqual([]);
    });

    test('a tool page: static product content, Product JSON-LD, login redirect when signed out', async ({
      browser,
      request,
      baseURL,
    }) => {
      const tool = (await liveTools(request))[0];
      // What search engines and the first paint get: the prebuilt HTML (scripts off, so no redirect).
      const context = await browser.newContext({ viewport, javaScriptEnabled: false, baseURL });
      const page = await context.newPage();
      const response = await page.goto(`/tools/${tool._id}`);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(`${tool.name} | Ironcrest Tools`);
      await expectPageBasics(page);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1 })).toHaveText(tool.name);
      await expect(main.getByRole('img', { name: tool.name })).toBeVisible();
      await expect(main).toContainText(tool.description);
      await expect(valueOf(main, 'Minimum order quantity')).toHaveText(String(tool.minimumOrderQuantity));
      await expect(valueOf(main, 'Available quantity')).toHaveText(String(tool.availableQuantity));
      await expect(valueOf(main, 'Available quantity')).toHaveAttribute('data-live-stock');
      await expect(main.locator('p[data-price]')).toContainText(price(tool));
      await expect(main.getByRole('heading', { name: 'Place an order' })).toBeVisible();
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(ld).toMatchObject({
        '@type': 'Product',
        name: tool.name,
        offers: {
          '@type': 'Offer',
          price: tool.price.toFixed(2),
          priceCurrency: 'USD',
          availability: 'https://schema.org/InStock',
        },
      });
      await context.close();

      // With scripts, a signed-out visitor is sent to log in and comes back here afterwards (spec point 4).
      const visitor = await browser.newPage({ viewport, baseURL });
      await visitor.goto(`/tools/${tool._id}`);
      await expect(visitor).toHaveURL(`/login?from=${encodeURIComponent(`/tools/${tool._id}`)}`);
      await visitor.close();
    });

    test('a tool page signed in: details, live stock and the purchase form', async ({ page, request }) => {
      const errors = pageErrors(page);
      const tool = (await liveTools(request))[1];
      await loginAs(page, `/tools/${tool._id}`);
      await expect(page).toHaveURL(new RegExp(`/tools/${tool._id}/?$`));
      await expectPageBasics(page);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1 })).toHaveText(tool.name);
      await expect(main.locator('[data-live-stock]')).toHaveText(String(tool.availableQuantity));
      const form = main.locator('section', { has: page.getByRole('heading', { name: 'Place an order' }) });
      await expect(form.getByLabel(/quantity/i).first()).toBeVisible();
      expect(errors).toEqual([]);
    });

    test('404: an unknown path and an unknown tool show the 404 card with status 404', async ({ page }) => {
      for (const path of ['/no/such/page', '/tools/000000000000000000000000', '/tools/not-a-tool']) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.notFound);
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
        await expectPageBasics(page);
      }
      await page.getByRole('link', { name: 'Back to the shop' }).click();
      await expect(page).toHaveURL('/');
    });

    for (const path of ['/', '/blogs', `/blogs/${posts[0].slug}`, '/myportfolio', '/no/such/page']) {
      test(`axe-core: no violations on ${path}`, async ({ page }) => {
        await page.goto(path);
        if (path === '/') {
          // Hydrate the reviews island and let the live tools grid replace its fallback first.
          await page.getByTestId('reviews').scrollIntoViewIfNeeded();
          await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
          await expect(page.locator('#tools').getByRole('article')).toHaveCount(HOME_TOOL_COUNT);
          await page.waitForLoadState('networkidle');
        }
        await expectNoAxeViolations(page);
      });
    }

    test('axe-core: no violations on a tool page with the purchase form', async ({ page, request }) => {
      const tool = (await liveTools(request))[0];
      await loginAs(page, `/tools/${tool._id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tool.name);
      // The reviews' island hydrates once it shows (client:visible).
      await page.getByRole('region', { name: 'Reviews', exact: true }).scrollIntoViewIfNeeded();
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page);
    });
  });
}

/** How many page buttons the paginator's window shows (first, last, current ±2; ellipses are not buttons). */
const buttonsAt = (current: number, pages: number) => pageWindow(current, pages).filter((p) => p !== GAP).length;

test.describe('reviews paginator', () => {
  test('sizes 2/5/10/15/20 (default 5), page count, highlighted page, back to page 1 on a size change', async ({
    page,
    request,
  }) => {
    const fetchPage = async (limit: number, pageNumber: number) =>
      (await (await request.get(`/api/reviews?limit=${limit}&pageNumber=${pageNumber}`)).json()) as ReviewsPage;
    const first = await fetchPage(DEFAULT_REVIEW_PAGE_SIZE, 0);
    const total = first.count;
    expect(total).toBeGreaterThan(DEFAULT_REVIEW_PAGE_SIZE);

    // Page 1 is in the prebuilt HTML, so the section is never empty before the island hydrates.
    // (Its reviews are those of build time; the island then loads the live page.)
    const html = await (await request.get('/')).text();
    await page.setContent(html.replace(/<script\b[\s\S]*?<\/script>/g, ''));
    await expect(page.getByTestId('reviews').getByRole('listitem')).toHaveCount(DEFAULT_REVIEW_PAGE_SIZE);
    await expect(page.getByTestId('reviews').getByRole('img', { name: /^Rated .* out of 5$/ })).toHaveCount(
      DEFAULT_REVIEW_PAGE_SIZE,
    );

    await page.goto('/');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Our Reviews' }) });
    await section.scrollIntoViewIfNeeded();
    const select = section.getByRole('combobox', { name: 'Reviews per page' });
    const pages = section.getByRole('navigation', { name: 'Review pages' }).getByRole('button');
    const reviews = section.getByTestId('reviews').getByRole('listitem');
    const current = section.locator('[aria-current="page"]');

    await expect(select).toHaveValue(String(DEFAULT_REVIEW_PAGE_SIZE));
    await expect(select.locator('option')).toHaveText(REVIEW_PAGE_SIZES.map(String));
    await expect(pages).toHaveCount(buttonsAt(0, pageCount(total, DEFAULT_REVIEW_PAGE_SIZE)));
    await expect(pages.last()).toHaveText(String(pageCount(total, DEFAULT_REVIEW_PAGE_SIZE)));
    await expect(current).toHaveText('1');
    await expect(reviews).toHaveCount(DEFAULT_REVIEW_PAGE_SIZE);
    for (const [i, review] of first.services.entries()) {
      await expect(reviews.nth(i)).toContainText(review.name);
      await expect(reviews.nth(i)).toContainText(review.Messege);
      await expect(reviews.nth(i).getByRole('img', { name: `Rated ${review.ratings} out of 5` })).toBeVisible();
    }

    // Page 2 (index 1): its reviews, and the highlight moves.
    const second = await fetchPage(DEFAULT_REVIEW_PAGE_SIZE, 1);
    await pages.nth(1).click();
    await expect(current).toHaveText('2');
    await expect(pages.nth(1)).toHaveAttribute('aria-current', 'page');
    await expect(pages.nth(0)).not.toHaveAttribute('aria-current', 'page');
    await expect(reviews.first()).toContainText(second.services[0].Messege);
    const highlighted = await pages.nth(1).evaluate((el) => getComputedStyle(el).backgroundColor);
    const plain = await pages.nth(0).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(highlighted, 'the current page looks different').not.toBe(plain);

    // Every size: back to the first page, page count = 1 below the size, else total / size rounded up.
    for (const size of REVIEW_PAGE_SIZES) {
      await select.selectOption(String(size));
      await expect(current).toHaveText('1');
      await expect(pages).toHaveCount(buttonsAt(0, pageCount(total, size)));
      await expect(pages.last()).toHaveText(String(pageCount(total, size)));
      await expect(reviews).toHaveCount(Math.min(size, total));
      await expect(reviews.first()).toContainText(first.services[0].Messege);
      if (pageCount(total, size) > 1) {
        await pages.last().click();
        await expect(current).toHaveText(String(pageCount(total, size)));
        await expect(reviews).toHaveCount(total - size * (pageCount(total, size) - 1));
      }
    }
  });
});

test.describe('reviews paginator window', () => {
  test('a long list shows the first, the last and the current ±2 pages, ellipses between, never more than 15 buttons', async ({
    page,
  }) => {
    // A million reviews' worth of pages, answered by a stand-in for the API (the e2e store has a few dozen).
    const count = 1_000_000;
    await page.route(
      (url) => url.pathname === '/api/reviews',
      async (route) => {
        const url = new URL(route.request().url());
        const limit = Number(url.searchParams.get('limit'));
        const pageNumber = Number(url.searchParams.get('pageNumber'));
        const services = Array.from({ length: limit }, (_, i) => {
          const n = count - pageNumber * limit - i;
          return { _id: `r${n}`, name: `Reviewer ${n}`, Messege: `Review number ${n}.`, ratings: 5 };
        });
        await route.fulfill({ json: { count, services } });
      },
    );
    await page.goto('/');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Our Reviews' }) });
    await section.scrollIntoViewIfNeeded();
    const nav = section.getByRole('navigation', { name: 'Review pages' });
    const pages = nav.getByRole('button');
    const current = nav.locator('[aria-current="page"]');
    const last = pageCount(count, DEFAULT_REVIEW_PAGE_SIZE);
    const labels = async () => (await pages.allTextContents()).map(Number);

    await expect(section.getByText(`${count} reviews`)).toBeVisible();
    await expect.poll(labels).toEqual([1, 2, 3, last]);
    await expect(nav.getByText('…')).toHaveCount(1);
    // The ellipsis is neither a button nor in the tab order, and hidden from screen readers.
    await expect(nav.getByText('…')).toHaveAttribute('aria-hidden', 'true');
    await expect(nav.locator('span[tabindex]')).toHaveCount(0);

    await nav.getByRole('button', { name: 'Page 3', exact: true }).click();
    await expect(current).toHaveText('3');
    await expect.poll(labels).toEqual([1, 2, 3, 4, 5, last]);
    await nav.getByRole('button', { name: 'Page 5', exact: true }).click();
    await expect(current).toHaveText('5');
    await expect.poll(labels).toEqual([1, 2, 3, 4, 5, 6, 7, last]);
    await nav.getByRole('button', { name: 'Page 7', exact: true }).click();
    await expect.poll(labels).toEqual([1, 5, 6, 7, 8, 9, last]);
    await expect(nav.getByText('…')).toHaveCount(2);
    await expect(section.getByTestId('reviews').getByRole('listitem').first()).toContainText(
      `Review number ${count - 6 * DEFAULT_REVIEW_PAGE_SIZE}.`,
    );

    await pages.last().click();
    await expect(current).toHaveText(String(last));
    await expect.poll(labels).toEqual([1, last - 2, last - 1, last]);
    expect(await pages.count()).toBeLessThanOrEqual(15);
  });
});

test.describe('reviews privacy', () => {
  test("no reviewer's email is in the home page or any page of reviews it loads", async ({ page, request }) => {
    const token = await adminApiToken(request);
    const all = await request.get('/api/reviews/moderation?limit=100&pageNumber=0', {
      headers: { authorization: `Bearer ${token}` },
    });
    const reviewers = [
      ...new Set(((await all.json()) as { services: { addedBy: string }[] }).services.map((r) => r.addedBy)),
    ];
    expect(reviewers.length).toBeGreaterThan(0);
    const html = await (await request.get('/')).text();
    for (const email of reviewers) expect(html, email).not.toContain(email);

    const answers: string[] = [];
    page.on('response', async (response) => {
      if (response.url().includes('/api/reviews')) answers.push(await response.text().catch(() => ''));
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Our Reviews' }).scrollIntoViewIfNeeded();
    await page.getByLabel('Reviews per page').selectOption('20');
    await expect(page.getByTestId('reviews').getByRole('listitem')).toHaveCount(20);
    expect(answers.length).toBeGreaterThan(0);
    for (const email of reviewers) expect(answers.join('\n'), email).not.toContain(email);
    expect(await page.content()).not.toMatch(/addedBy/);
  });
});

test.describe('reviews paginator states', () => {
  test('a loading indicator while a page loads, and a visible error when it fails', async ({ page }) => {
    await page.goto('/');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Our Reviews' }) });
    await section.scrollIntoViewIfNeeded();
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    const pages = section.getByRole('navigation', { name: 'Review pages' }).getByRole('button');

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/reviews' && url.searchParams.get('pageNumber') === '1',
      async (route) => {
        await held;
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"error":{"code":"internal","message":"down"}}',
        });
      },
    );
    await pages.nth(1).click();
    await expect(section.getByRole('status')).toContainText(/loading/i);
    release();
    await expect(section.getByRole('alert')).toContainText(/could not load reviews/i);
  });
});

test.describe('Get In Touch', () => {
  test('the message is checked, sent and confirmed with a toast', async ({ page }) => {
    await page.goto('/#contact');
    const form = page.locator('form[data-contact-form]');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(form.getByRole('alert')).toHaveText(messages.nameRequired);
    await page.getByLabel('Your Name').fill('Rina Das');
    await page.getByLabel('Your Email').fill('rina.das@example.com');
    await page.getByLabel('Your Messege').fill('Do you ship 500 claw hammers to Chattogram?');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(messages.contactSent)).toBeVisible();
    await expect(page.getByLabel('Your Name')).toHaveValue('');
  });
});

test.describe('findable', () => {
  test('unique titles and descriptions, canonical links, robots.txt and a sitemap of every page', async ({
    page,
    request,
  }) => {
    const tools = await liveTools(request);
    const paths = ['/', '/blogs', ...posts.map((p) => `/blogs/${p.slug}`), '/myportfolio', `/tools/${tools[0]._id}`];
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const url of paths) {
      const html = await (await request.get(url)).text();
      await page.setContent(html.replace(/<script\b[\s\S]*?<\/script>/g, ''));
      titles.add(await page.title());
      descriptions.add((await page.locator('meta[name="description"]').getAttribute('content')) ?? '');
      expect(await page.locator('h1').count(), url).toBe(1);
      expect(new URL((await page.locator('link[rel="canonical"]').getAttribute('href')) ?? '').pathname, url).toBe(url);
    }
    expect(titles.size).toBe(paths.length);
    expect(descriptions.size).toBe(paths.length);

    const robots = await request.get('/robots.txt');
    expect(robots.ok()).toBe(true);
    expect(await robots.text()).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);

    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.headers()['content-type']).toContain('xml');
    const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
    expect(locs).toEqual(
      expect.arrayContaining(['/', '/blogs', ...posts.map((p) => `/blogs/${p.slug}`), '/myportfolio']),
    );
    // Every tool the store sells now (the sitemap is rendered from the live catalogue, not the build).
    const live = (await liveTools(request)).map((t) => `/tools/${t._id}`);
    expect(live.length).toBeGreaterThan(0);
    expect(locs.filter((p) => p.startsWith('/tools/')).sort()).toEqual(live.sort());
  });
});
