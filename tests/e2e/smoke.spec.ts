import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
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
    const order = [
      'Our Tools',
      'Trusted by builders everywhere',
      'Our Reviews',
      'Our Latest Construction',
      'Get In Touch',
    ];
    expect(headings.filter((h) => order.includes(h))).toEqual(order);
    await expect(page.getByRole('link', { name: /^Order Now/ })).toHaveCount(6);
    for (const title of ['Services', 'Company', 'Legal'])
      await expect(page.getByRole('contentinfo').getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('2022');
  });

  test('a page paints before its own scripts load, and they run after it (issue 30, goal 6)', async ({
    page,
    request,
  }) => {
    for (const path of ['/', '/blogs']) {
      const html = await (await request.get(path)).text();
      // No module script fetched at high priority before the first paint, nor a preload of its chunks.
      expect(html, path).not.toMatch(/<script type="module" src=/);
      expect(html, path).not.toContain('rel="modulepreload"');
      await page.goto(path);
      // The search trigger (a page script) answers "/" once it has run.
      await expect(async () => {
        await page.keyboard.press('/');
        await expect(page.locator('#site-search')).toBeFocused({ timeout: 500 });
      }).toPass();
      await expect(page.locator('link[rel=modulepreload]').first()).toBeAttached();
      // Not before the first paint is shown: a frame's requestAnimationFrame (and a task queued from it)
      // came 15-20 ms before the paint in Chromium without a GPU, and the chunks were fetched before it.
      // Nor does home's server island (the cards' fresh stock) fetch its answer before it.
      if (path === '/') await expect(page.locator('script[data-island-id]')).toHaveCount(0);
      const { paint, fetched } = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        fetched: performance
          .getEntriesByType('resource')
          .filter((r) => /^\/_(astro|server-islands)\//.test(new URL(r.name).pathname))
          .map((r) => ({ path: new URL(r.name).pathname, at: r.startTime })),
      }));
      expect(paint, path).toBeGreaterThan(0);
      expect(fetched.length, path).toBeGreaterThan(0);
      if (path === '/') expect(fetched.map((f) => f.path)).toContain('/_server-islands/ToolsGrid');
      for (const f of fetched) expect(f.at, `${path}: ${f.path}`).toBeGreaterThanOrEqual(paint!);
    }
  });

  test('an unknown path shows the 404 card with status 404, compressed like any page', async ({ page, request }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: messages.notFound })).toBeVisible();
    // The prebuilt page precompressed (~8 kB), not Astro's uncompressed copy (~44 kB).
    const compressed = await request.get('/no/such/page', { headers: { 'accept-encoding': 'br' } });
    expect(compressed.status()).toBe(404);
    expect(compressed.headers()['content-encoding']).toBe('br');
    expect(Number(compressed.headers()['content-length'])).toBeLessThan(16_000);
    const plain = await request.get('/no/such/page', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers()['content-encoding']).toBeUndefined();
    expect(await plain.text()).toContain(messages.notFound);
  });
});

test.describe('security headers on every response', () => {
  for (const path of ['/', '/blogs', '/api/tools', '/no/such/page', '/_astro/']) {
    test(`${path} carries the security headers`, async ({ request }) => {
      const response = await request.get(path);
      const headers = response.headers();
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['content-security-policy']).toContain("default-src 'self'");
      expect(headers['x-request-id']).toBeTruthy();
    });
  }

  test('each response carries one policy: a prebuilt page its own, the rest the default; a hashed script none', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    // The page's scripts start after its first paint, with a preload of each chunk (page-scripts.ts).
    const preloaded = page.locator('link[rel=modulepreload][href^="/_astro/"]').first();
    await expect(preloaded).toBeAttached();
    const script = await preloaded.getAttribute('href');
    const policiesOf = async (path: string) =>
      (await request.get(path)).headersArray().filter((h) => h.name.toLowerCase() === 'content-security-policy');
    for (const path of ['/', '/blogs', '/api/tools', '/no/such/page'])
      expect(await policiesOf(path), path).toHaveLength(1);
    // A script runs under its page's policy: its own would mean nothing, only bytes (issue 30's budgets).
    expect(await policiesOf(script!), script!).toHaveLength(0);
    expect((await request.get(script!)).headers()['x-content-type-options']).toBe('nosniff');
  });

  test("a page's policy lists the hashes of its own inline scripts and styles, and no other", async ({ request }) => {
    // The site-wide list (every page's hashes) cost ~1.1 kB of headers on each page (issue 30, goal 6).
    for (const path of ['/', '/blogs', '/login', '/dashboard', '/tools', '/no/such/page']) {
      const response = await request.get(path);
      const html = await response.text();
      const policy = response.headers()['content-security-policy'];
      const listed = (name: string) =>
        [...(policy.split(';').find((d) => d.trim().startsWith(name)) ?? '').matchAll(/'sha256-([^']+)'/g)]
          .map((m) => m[1])
          .sort();
      const inline = (tag: string) =>
        [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, 'g'))]
          .filter(([, attributes]) => tag === 'style' || !/\bsrc=/.test(attributes))
          .filter(([, attributes]) => !attributes.includes('application/ld+json'))
          .map(([, , body]) => createHash('sha256').update(body).digest('base64'));
      expect(listed('script-src'), path).toEqual([...new Set(inline('script'))].sort());
      expect(listed('style-src'), path).toEqual([...new Set(inline('style'))].sort());
      expect(policy, path).not.toContain('unsafe-inline');
    }
  });

  test('hashed assets are immutable and compressed', async ({ page, request }) => {
    await page.goto('/');
    // The stylesheet is inlined in each page; its module scripts and preloads are hashed assets. Files under
    // 512 bytes are not worth compressing (postbuild skips them), so the largest one carries the check.
    // The preloads are added once the first paint is shown (page-scripts.ts), which may come after `load`.
    await expect(page.locator('link[rel=modulepreload][href^="/_astro/"]').first()).toBeAttached();
    const assets = await page
      .locator('script[type=module][src^="/_astro/"], link[rel=modulepreload][href^="/_astro/"]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('src') ?? n.getAttribute('href')!));
    expect(assets.length).toBeGreaterThan(0);
    const sizes = await Promise.all(
      assets.map(async (a) => ({
        a,
        size: (await (await request.get(a, { headers: { 'accept-encoding': 'identity' } })).body()).length,
      })),
    );
    const largest = sizes.sort((x, y) => y.size - x.size)[0];
    expect(largest.size).toBeGreaterThan(512);
    for (const { a } of sizes) {
      const response = await request.get(a, { headers: { 'accept-encoding': 'identity' } });
      expect(response.headers()['cache-control'], a).toBe('public, max-age=31536000, immutable');
    }
    const response = await request.get(largest.a, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers()['content-encoding']).toBe('br');
  });
});
