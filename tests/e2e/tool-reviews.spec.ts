// Reviews on each tool (issue 24): a tool's page shows its reviews and average in its HTML (and its
// JSON-LD's aggregateRating); a shopper who paid for the tool reviews it from the page and the review
// shows as 'Verified buyer'; anyone else is told why they cannot; more reviews load a page at a time.
import { expect, test, type Page } from '@playwright/test';
import type { ToolReviewsPage } from '../../src/lib/entities';
import { messages } from '../../src/lib/messages';
import { FIRST_WINDOW, responseBytes } from '../../scripts/bench/pages';
import { type Account, apiWith, createTool, demoAdminToken, newAccount, placeOrder } from './dashboard-fixtures';
import { expectNoAxeViolations, login, pageErrors } from './fixtures';

const reviews = (page: Page) => page.getByRole('region', { name: 'Reviews', exact: true });

/** A buyer who paid for the tool (through the API) and reviewed it. */
async function reviewedBy(toolId: string, name: string, ratings: number, Messege: string): Promise<Account> {
  const buyer = await newAccount(name, 'reviewer');
  await placeOrder(buyer, toolId, 1, true);
  const posted = await apiWith(buyer.token, 'POST', 'review', { name, Messege, ratings, toolId });
  expect(posted.status, JSON.stringify(posted.data)).toBe(201);
  return buyer;
}

/** The Product JSON-LD of a page's HTML. */
function productLd(html: string): Record<string, any> {
  const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  expect(json, 'the page has JSON-LD').toBeTruthy();
  return JSON.parse(json!);
}

test.describe('reviews on a tool page', () => {
  test('a shopper pays for a tool, reviews it from its page as a verified buyer, and the average updates', async ({
    page,
    request,
  }) => {
    const errors = pageErrors(page);
    const name = `Review Hammer ${Date.now()}`;
    const toolId = await createTool({ name, price: 20, minimumOrderQuantity: 1, availableQuantity: 50 });
    await reviewedBy(toolId, 'Karim', 3, 'Did the job, heavy for overhead work.');
    const shopper = await newAccount('Nadia Builder');

    // Buy the tool from its page and pay with the sandbox card.
    await login(page, shopper, `/tools/${toolId}`);
    await expect(page.getByRole('button', { name: 'Purchase' })).toBeVisible();
    await page.getByLabel('Quantity').fill('2');
    await page.getByLabel('Address').fill('House 12, Road 5, Dhanmondi, Dhaka');
    await page.getByLabel('Phone').fill('01712345678');
    // Not yet paid: the reviews say why this shopper cannot review yet.
    await page.getByRole('button', { name: 'Purchase' }).click();
    await expect(page.getByRole('alert').filter({ hasText: messages.orderPlaced })).toBeVisible();
    await reviews(page).scrollIntoViewIfNeeded();
    await expect(reviews(page).getByText(messages.reviewBuyersOnly)).toBeVisible();
    await page.getByRole('link', { name: 'Pay now' }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.getByText(messages.paymentSuccess)).toBeVisible();

    // Back on the tool's page: one review so far, averaging 3.
    await page.goto(`/tools/${toolId}`);
    const section = reviews(page);
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByTestId('reviews-summary')).toContainText('3.0');
    await expect(section.getByTestId('reviews-summary')).toContainText('1 review');
    await section.getByRole('button', { name: 'Write a review' }).click();
    const form = section.getByRole('form', { name: 'Review this tool' });
    await expect(form.getByLabel('Message')).toBeFocused();
    await expect(form.getByLabel('Name')).toHaveValue('Nadia Builder');

    // The spec's rules, with its messages.
    await form.getByLabel('Name').fill('N'.repeat(21));
    await form.getByLabel('Rating').fill('6');
    await form.getByRole('button', { name: 'Post review' }).click();
    await expect(form.getByText(messages.reviewNameTooLong)).toBeVisible();
    await expect(form.getByText(messages.ratingRange)).toBeVisible();
    await expect(form.getByText(messages.reviewMessageRequired)).toBeVisible();
    await expect(form.getByLabel('Name')).toBeFocused();

    await form.getByLabel('Name').fill('Nadia');
    await form.getByLabel('Message').fill('Perfect balance, no shock in the wrist after a full day of framing.');
    await form.getByLabel('Rating').fill('5');
    await expect(form.getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible();
    await form.getByRole('button', { name: 'Post review' }).click();
    await expect(page.getByRole('alert').filter({ hasText: messages.reviewAdded })).toBeVisible();

    // The review shows first, as a verified buyer's, and the average and count moved.
    const first = section.getByRole('listitem').first();
    await expect(first).toContainText('Perfect balance, no shock in the wrist');
    await expect(first).toContainText('Nadia');
    await expect(first.getByText(messages.verifiedBuyer)).toBeVisible();
    await expect(first.getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible();
    await expect(section.getByTestId('reviews-summary')).toContainText('4.0');
    await expect(section.getByTestId('reviews-summary')).toContainText('2 reviews');
    await expect(section.getByText(`${messages.reviewAdded}.`)).toBeVisible();

    // The page as a plain request (no session, no script) carries the review and the aggregate rating.
    const html = await (await request.get(`/tools/${toolId}`)).text();
    expect(html).toContain('Perfect balance, no shock in the wrist after a full day of framing.');
    expect(html).toContain(messages.verifiedBuyer);
    expect(productLd(html).aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4,
      reviewCount: 2,
      bestRating: 5,
      worstRating: 1,
    });

    // Reloaded: the server's page shows it, and the shopper's one review is used.
    await page.reload();
    await reviews(page).scrollIntoViewIfNeeded();
    await expect(reviews(page).getByRole('listitem').first()).toContainText('Perfect balance');
    await expect(reviews(page).getByText(messages.reviewAlreadyPosted)).toBeVisible();
    await expectNoAxeViolations(page);
    expect(errors).toEqual([]);
  });

  test('a shopper without a paid order of the tool is told why they cannot review it; the API refuses too', async ({
    page,
  }) => {
    const toolId = await createTool({ name: `Unbought Chisel ${Date.now()}` });
    const shopper = await newAccount('Window Shopper');
    await placeOrder(shopper, toolId, 1, false);
    await login(page, shopper, `/tools/${toolId}`);
    const section = reviews(page);
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByText(messages.noToolReviews)).toBeVisible();
    await expect(section.getByText(messages.reviewBuyersOnly)).toBeVisible();
    await expect(section.getByRole('button', { name: 'Write a review' })).toHaveCount(0);
    const refused = await apiWith(shopper.token, 'POST', 'review', {
      name: 'Sneaky',
      Messege: 'Never bought it.',
      ratings: 5,
      toolId,
    });
    expect(refused).toMatchObject({ status: 403, data: { error: { message: messages.reviewBuyersOnly } } });
  });

  test('a tool page without reviews has no aggregateRating; a hidden review leaves the page and the average', async ({
    request,
  }) => {
    const toolId = await createTool({ name: `Quiet Wrench ${Date.now()}` });
    let html = await (await request.get(`/tools/${toolId}`)).text();
    expect(productLd(html).aggregateRating).toBeUndefined();
    expect(html).toContain(messages.noToolReviews);

    await reviewedBy(toolId, 'Tanvir', 4, 'Solid jaws, smooth thread.');
    const spam = await reviewedBy(toolId, 'Spammer', 1, 'Visit my shop for cheaper wrenches!');
    html = await (await request.get(`/tools/${toolId}`)).text();
    expect(html).toContain('Visit my shop');
    expect(productLd(html).aggregateRating).toMatchObject({ ratingValue: 2.5, reviewCount: 2 });

    const page: ToolReviewsPage = await (await request.get(`/api/tools/${toolId}/reviews`)).json();
    const spamId = page.services.find((r) => r.name === 'Spammer')!._id;
    expect((await apiWith(await demoAdminToken(), 'PUT', `reviews/hide/${spamId}`, { hidden: true })).status).toBe(200);
    html = await (await request.get(`/tools/${toolId}`)).text();
    expect(html).not.toContain('Visit my shop');
    expect(productLd(html).aggregateRating).toMatchObject({ ratingValue: 4, reviewCount: 1 });
    expect(html).not.toContain(spam.email);
  });

  test('long reviews: the page HTML still fits the first round trip, and the island shows them whole', async ({
    page,
    request,
  }) => {
    const toolId = await createTool({ name: `Long Read Level ${Date.now()}` });
    // Text that barely compresses: the worst case for the page's size.
    const noise = (seed: number) =>
      Array.from(
        { length: 2000 },
        (_, i) => String.fromCharCode(97 + (((i * 7919 + seed * 104729) % 9973) % 26)) + (i % 9 === 8 ? ' ' : ''),
      )
        .join('')
        .slice(0, 2000);
    const texts = [1, 2, 3].map(noise);
    for (const [i, text] of texts.entries()) await reviewedBy(toolId, `Long ${i}`, 4, text);
    const compressed = await request.get(`/tools/${toolId}`, { headers: { 'accept-encoding': 'br' } });
    const length = Number(compressed.headers()['content-length']);
    expect(
      responseBytes(compressed.status(), compressed.statusText(), compressed.headersArray(), length),
    ).toBeLessThanOrEqual(FIRST_WINDOW);
    const html = await (await request.get(`/tools/${toolId}`)).text();
    expect(html).toContain(texts[2].slice(0, 200));
    expect(html).not.toContain(texts[2].slice(0, 400));

    await login(page, await newAccount('Long Reader'), `/tools/${toolId}`);
    const section = reviews(page);
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByRole('listitem').first()).toContainText(texts[2]);
  });

  test('more reviews load a page at a time, each once', async ({ page }) => {
    const toolId = await createTool({ name: `Busy Saw ${Date.now()}` });
    for (let i = 1; i <= 8; i++) await reviewedBy(toolId, `Buyer ${i}`, 1 + (i % 5), `Review number ${i} of the saw.`);
    await login(page, await newAccount('Reader'), `/tools/${toolId}`);
    const section = reviews(page);
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByRole('listitem')).toHaveCount(3);
    await expect(section.getByText('Showing 3 of 8 reviews')).toBeVisible();
    await section.getByRole('button', { name: 'Show more reviews' }).click();
    await expect(section.getByText('Showing 8 of 8 reviews')).toBeVisible();
    await expect(section.getByRole('button', { name: 'Show more reviews' })).toHaveCount(0);
    const texts = await section.getByRole('listitem').allTextContents();
    const numbers = texts.map((t) => Number(/Review number (\d+)/.exec(t)?.[1]));
    expect(numbers).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
  });
});

test('screenshots of a tool page with reviews, 390 and 1280 px, light and dark', async ({ browser }) => {
  test.setTimeout(240_000);
  const toolId = await createTool({
    name: `Framing Hammer ${Date.now()}`,
    img: '/images/tools/milled-face-framing-hammer.svg',
  });
  await reviewedBy(toolId, 'Karim', 4.5, 'Good weight, the grip stays dry in the rain. Used it on a two-storey frame.');
  await reviewedBy(toolId, 'Shirin Akter', 5, 'Best hammer on our site.\nThe claw pulls 4-inch nails without a fuss.');
  const buyer = await newAccount('Rahim Uddin');
  await placeOrder(buyer, toolId, 1, true);
  // Signed in once at desktop width (the phone header keeps Sign Out in its menu), then each theme and width.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await login(page, buyer, `/tools/${toolId}`);
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/tools/${toolId}`);
      const section = reviews(page);
      await section.scrollIntoViewIfNeeded();
      const write = section.getByRole('button', { name: 'Write a review' });
      await expect(write).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await section.screenshot({ path: `test-results/tool-reviews-${colorScheme}-${width}.png` });
      await page.screenshot({ path: `test-results/tool-page-${colorScheme}-${width}.png`, fullPage: true });
      await write.click();
      await expect(section.getByRole('form', { name: 'Review this tool' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await section.screenshot({ path: `test-results/tool-reviews-form-${colorScheme}-${width}.png` });
    }
  }
  await context.close();
});
