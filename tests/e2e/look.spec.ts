// What a modern storefront is expected to do for the eye and the device: images sized to their slot
// (an upload's variants), the web app manifest and icons, the dark theme (axe clean) and reduced motion.
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { DEMO_ADMIN, expectNoAxeViolations, liveTools, login, pageErrors } from './fixtures';
import { apiWith, createTool, demoAdminToken } from './dashboard-fixtures';

/** A 1600×1200 photo-like upload (a gradient with grain), as an admin's camera would give. */
async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#3d444c"/><stop offset="1" stop-color="#f5a524"/></linearGradient></defs><rect width="1600" height="1200" fill="url(#g)"/><circle cx="800" cy="600" r="380" fill="#1f2328"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function uploadPhoto(): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(await photo())], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await fetch(`${test.info().project.use.baseURL}/api/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await demoAdminToken()}` },
    body: form,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { url: string } }).data.url;
}

/** Pixels the browser downloaded for the image against the device pixels it displays it in. */
async function pixelRatio(page: Page, name: string) {
  const image = page.locator('#tools').getByRole('img', { name, exact: true });
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // naturalWidth of a srcset pick is in CSS pixels (divided by its density): the file's own size is read apart.
  return image.evaluate(async (img: HTMLImageElement) => {
    const file = new Image();
    file.src = img.currentSrc;
    await file.decode();
    return {
      src: img.currentSrc,
      ratio: (file.naturalWidth * file.naturalHeight) / (img.clientWidth * img.clientHeight * devicePixelRatio ** 2),
    };
  });
}

test.describe('images', () => {
  let toolId: string;
  const name = `Photo Hammer ${Date.now()}`;
  test.beforeAll(async () => {
    toolId = await createTool({ name, img: await uploadPhoto() });
  });
  test.afterAll(async () => {
    await apiWith(await demoAdminToken(), 'DELETE', `tools/${toolId}`);
  });

  const cases = [
    { width: 360, height: 780, dpr: 1 },
    { width: 360, height: 780, dpr: 3 },
    { width: 1280, height: 900, dpr: 1 },
    { width: 1280, height: 900, dpr: 2 },
  ];
  for (const { width, height, dpr } of cases) {
    test(`a card at ${width} px (×${dpr}) downloads at most twice the pixels it shows, as AVIF`, async ({
      browser,
    }) => {
      const page = await pageAt(browser, { width, height }, dpr);
      await page.goto('/');
      await expect(page.locator('#tools').getByRole('heading', { name })).toBeVisible({ timeout: 20_000 });
      // The grid is a server island fetched after the first paint: the card measured is the one that stays.
      await expect(page.locator('script[data-island-id]')).toHaveCount(0);
      const { src, ratio } = await pixelRatio(page, name);
      expect(src).toMatch(/\/api\/images\/[0-9a-f]{32}-\d+\.avif$/);
      expect(ratio).toBeLessThanOrEqual(2);
      expect(ratio).toBeGreaterThan(0.5); // and not a blurry smaller one
      await page.context().close();
    });
  }

  test('the tool page shows a variant too, fetched first', async ({ page }) => {
    await login(page, DEMO_ADMIN, `/tools/${toolId}`);
    const image = page.getByRole('img', { name, exact: true });
    await expect(image).toHaveAttribute('fetchpriority', 'high');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-\d+\.avif$/);
  });

  test('a seeded SVG stays one plain <img>', async ({ page, request }) => {
    const seeded = (await liveTools(request)).find((t) => t.img.endsWith('.svg'))!;
    await login(page, DEMO_ADMIN, `/tools/${seeded._id}`);
    const image = page.getByRole('img', { name: seeded.name, exact: true });
    await expect(image).toHaveAttribute('src', seeded.img);
    await expect(image).not.toHaveAttribute('srcset', /./);
  });
});

async function pageAt(browser: Browser, viewport: { width: number; height: number }, deviceScaleFactor: number) {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  return context.newPage();
}

test('the web app manifest names the store, with SVG, PNG and maskable icons that load', async ({ page, request }) => {
  await page.goto('/');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#1f2328');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const response = await request.get(href!);
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await response.json()) as {
    name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Ironcrest Tools', start_url: '/', display: 'standalone' });
  const has = (sizes: string, purpose: string) =>
    manifest.icons.some((i) => i.sizes === sizes && i.purpose === purpose && i.type === 'image/png');
  expect([
    has('192x192', 'any'),
    has('512x512', 'any'),
    has('192x192', 'maskable'),
    has('512x512', 'maskable'),
  ]).toEqual([true, true, true, true]);
  for (const icon of [...manifest.icons, { src: '/icons/apple-touch-icon.png', sizes: '180x180' }]) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    if (icon.sizes !== 'any') {
      const meta = await sharp(await file.body()).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    }
  }
});

test('the header fits on one line at tablet and desktop widths, signed in (name, Dashboard, Sign Out) and out', async ({
  page,
}) => {
  const fits = async () =>
    page
      .locator('header nav')
      .first()
      .evaluate((nav) => ({
        overflow: nav.scrollWidth - nav.clientWidth,
        wrapped: [...nav.querySelectorAll<HTMLElement>('a, button, span')]
          .filter((e) => e.offsetParent && e.textContent!.trim() && e.getBoundingClientRect().height > 44)
          .map((e) => e.textContent!.trim()),
      }));
  const widths = [768, 900, 1024, 1152, 1280, 1440];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/tools');
    expect(await fits(), `signed out at ${width} px`).toEqual({ overflow: 0, wrapped: [] });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, DEMO_ADMIN, '/tools');
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/tools');
    await expect(page.locator('html[data-session="in"]')).toHaveCount(1);
    expect(await fits(), `signed in at ${width} px`).toEqual({ overflow: 0, wrapped: [] });
  }
});

test('from 1024 to 1920 px the brand, the search, every link and the name stay whole and apart, signed in and out', async ({
  page,
}) => {
  const parts = () =>
    page
      .locator('header nav')
      .first()
      .evaluate((nav) => {
        const shown = (e: Element) => (e as HTMLElement).offsetParent !== null && e.getBoundingClientRect().width > 0;
        const items = [
          nav.querySelector('a[href="/"]')!,
          nav.querySelector('#site-search')!,
          ...[...nav.querySelectorAll('#main-menu a, #main-menu button, [data-session-name]')].filter(shown),
        ];
        return items.map((e) => {
          const r = e.getBoundingClientRect();
          const el = e as HTMLElement;
          return {
            name: (el.getAttribute('aria-label') ?? el.textContent ?? el.id).trim() || el.id,
            left: r.left,
            right: r.right,
            top: r.top,
            bottom: r.bottom,
            // Cut text: its content is wider than its box (the name may be, with an ellipsis and a title).
            cut: el.matches('[data-session-name]') ? false : el.scrollWidth > el.clientWidth + 1,
            empty: el.matches('[data-session-name]') && !el.textContent?.trim(),
          };
        });
      });
  const check = async (label: string) => {
    const boxes = await parts();
    for (const b of boxes) {
      expect(b.cut, `${label}: ${b.name} is cut`).toBe(false);
      expect(b.empty, `${label}: the name is empty`).toBe(false);
      expect(b.left, `${label}: ${b.name} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(b.right, `${label}: ${b.name} ends on screen`).toBeLessThanOrEqual(page.viewportSize()!.width);
    }
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const overlap =
          Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
        expect(overlap, `${label}: ${a.name} overlaps ${b.name}`).toBe(false);
      }
  };
  const widths = [1024, 1100, 1280, 1440, 1920];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/tools');
    await check(`signed out at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, DEMO_ADMIN, '/tools');
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/tools');
    await expect(page.locator('[data-session-name]').first()).toBeVisible();
    await check(`signed in at ${width} px`);
  }
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  const pageBackground = (page: Page) =>
    page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  test('the page follows the system setting: dark page, the header still charcoal', async ({ page }) => {
    await page.goto('/');
    expect(await pageBackground(page)).toBe('rgb(18, 21, 25)');
    expect(
      await page
        .locator('header')
        .first()
        .evaluate((h) => getComputedStyle(h).backgroundColor),
    ).toBe('rgb(31, 35, 40)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await pageBackground(page)).toBe('rgb(246, 247, 248)');
  });

  for (const path of ['/', '/login', '/blogs']) {
    test(`axe: ${path} in the dark theme`, async ({ page }) => {
      const errors = pageErrors(page);
      await page.goto(path);
      if (path === '/') {
        await page.getByTestId('reviews').scrollIntoViewIfNeeded();
        await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      }
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page);
      expect(errors).toEqual([]);
    });
  }

  test('the header search: its popup is a dark surface with light text, axe clean with a result chosen', async ({
    page,
  }) => {
    await page.goto('/tools');
    const box = page.getByRole('combobox', { name: 'Search tools' });
    await box.click();
    await box.fill('hammer');
    await expect(page.getByRole('option').first()).toBeVisible();
    await page.keyboard.press('ArrowDown');
    const popup = page.locator('.search-popup');
    expect(await popup.evaluate((p) => getComputedStyle(p).backgroundColor)).toBe('rgb(26, 30, 35)');
    expect(await popup.evaluate((p) => getComputedStyle(p).color)).toBe('rgb(230, 233, 236)');
    await expectNoAxeViolations(page);
  });

  test('axe: a tool page in the dark theme, signed in with the purchase form', async ({ page, request }) => {
    const tool = (await liveTools(request))[0];
    await login(page, DEMO_ADMIN, `/tools/${tool._id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tool.name);
    // The reviews' island hydrates once it shows (client:visible).
    await page.getByRole('region', { name: 'Reviews', exact: true }).scrollIntoViewIfNeeded();
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page);
  });

  test('axe: dashboard screens in the dark theme (profile, manage products, add products)', async ({ page }) => {
    await login(page, DEMO_ADMIN, '/dashboard');
    for (const [path, heading] of [
      ['/dashboard', /./],
      ['/dashboard/allproduct', /Manage/i],
      ['/dashboard/addproduct', /Add/i],
    ] as const) {
      await page.goto(path);
      await expect(
        page
          .getByRole('heading', { level: 1 })
          .or(page.getByRole('heading', { level: 2 }))
          .first(),
      ).toHaveText(heading);
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page);
    }
  });
});

test('reduced motion: no transitions when the system asks for less', async ({ page }) => {
  await page.goto('/login');
  const button = page.getByRole('button', { name: 'Login', exact: true });
  const duration = () => button.evaluate((b) => parseFloat(getComputedStyle(b).transitionDuration));
  expect(await duration()).toBeGreaterThan(0.05);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await duration()).toBeLessThan(0.001);
});

// Not a check: pictures of a few pages in both themes for a person to look at (LOOK_SCREENSHOTS=dir).
test('screenshots in both themes', async ({ browser, request }) => {
  test.skip(!process.env.LOOK_SCREENSHOTS, 'set LOOK_SCREENSHOTS to a folder to take them');
  test.setTimeout(180_000);
  const tool = (await liveTools(request))[0];
  const signIn = await browser.newContext();
  await login(await signIn.newPage(), DEMO_ADMIN, '/dashboard');
  const storageState = await signIn.storageState();
  await signIn.close();
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [360, 1280]) {
      const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 }, storageState });
      const page = await context.newPage();
      for (const [label, path] of [
        ['home', '/'],
        ['tool', `/tools/${tool._id}`],
        ['blogs', '/blogs'],
        ['dashboard', '/dashboard/allproduct'],
        ['profile', '/dashboard'],
      ]) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: `${process.env.LOOK_SCREENSHOTS}/${label}-${colorScheme}-${width}.png`,
          fullPage: label === 'home' || label === 'tool',
        });
      }
      await context.close();
      const anonymous = await browser.newContext({ colorScheme, viewport: { width, height: 900 } });
      const loginPage = await anonymous.newPage();
      await loginPage.goto('/login');
      await loginPage.screenshot({ path: `${process.env.LOOK_SCREENSHOTS}/login-${colorScheme}-${width}.png` });
      await anonymous.close();
    }
  }
});
