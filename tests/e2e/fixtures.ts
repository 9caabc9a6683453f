// Shared helpers for the browser tests: the demo accounts, the emulator, sign-in through the real UI.
import { expect, type Page, type Request } from '@playwright/test';
import { DEMO_ADMIN, DEMO_PROJECT_ID, DEMO_SHOPPER } from '../../src/server/config';
import { E2E_EMULATOR } from '../../playwright.config';

export { DEMO_ADMIN, DEMO_SHOPPER };
export const EMULATOR = `http://${E2E_EMULATOR}`;

/** Verification and reset codes the emulator recorded for an email. */
export async function oobCodes(email: string): Promise<{ email: string; requestType: string; oobCode: string }[]> {
  const response = await fetch(`${EMULATOR}/emulator/v1/projects/${DEMO_PROJECT_ID}/oobCodes`);
  const { oobCodes } = (await response.json()) as {
    oobCodes: { email: string; requestType: string; oobCode: string }[];
  };
  return oobCodes.filter((c) => c.email === email);
}

export const uniqueEmail = (prefix = 'user') =>
  `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Logs in through the login page and waits until the header shows the signed-in state. */
export async function login(page: Page, account: { email: string; password: string }, from?: string) {
  await page.goto(from ? `/login?from=${encodeURIComponent(from)}` : '/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  // The header flips before the redirect; wait until we have left /login so callers act on the next page.
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
}

/** Signs out from the header and waits for the home page it goes to, so the next navigation is not cut short. */
export async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
}

/** The API as a signed-in browser session calls it (token from localStorage). */
export async function apiAs(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(`/api/${path}`, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem('accessToken')}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, data: await response.json().catch(() => null) };
    },
    { method, path, body },
  );
}

// --- Storefront and freshness (issue 4) -------------------------------------------------------
// Imports for this block live here so the block can be appended without touching the lines above.
import { readFileSync, readdirSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import type { Tool } from '../../src/lib/entities';

/** The phone and desktop widths every storefront page is checked at. */
export const VIEWPORTS = [
  { name: 'phone', viewport: { width: 360, height: 740 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;

export type ToolJson = Tool;

/** The live catalogue, newest first, as the API serves it. */
export async function liveTools(request: APIRequestContext): Promise<ToolJson[]> {
  const response = await request.get('/api/tools', { headers: { 'cache-control': 'no-cache' } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as ToolJson[];
}

export interface BlogPost {
  slug: string;
  title: string;
  description: string;
  author: string;
  pubDate: Date;
  order: number;
  draft: boolean;
}

/** A Markdown file's frontmatter, read as YAML (the content editor writes lists and folded lines). */
export function frontmatter(file: string): Record<string, unknown> {
  return parseYaml(/^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))![1]) as Record<string, unknown>;
}

/** The blog posts from their Markdown frontmatter, in the order /blogs lists them. */
export function blogPosts(dir = 'src/content/blogs'): BlogPost[] {
  return (
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((file) => {
        const data = frontmatter(`${dir}/${file}`);
        return {
          slug: file.replace(/\.md$/, ''),
          title: String(data.title),
          description: String(data.description),
          author: String(data.author),
          pubDate: new Date(String(data.pubDate)),
          order: Number(data.order),
          draft: data.draft === true,
        };
      })
      // The built store leaves drafts out (src/content/queries.ts).
      .filter((post) => !post.draft)
      .sort((a, b) => a.order - b.order || a.title.localeCompare(b.title))
  );
}

/** How the site writes a date (en-US long, UTC). */
export const siteDate = (date: Date) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);

/** Collects Content-Security-Policy refusals and script errors the page reports. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  // A refusal the page's code catches (e.g. a library probing for eval) is reported only as this event.
  void page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Refused by Content Security Policy (${e.violatedDirective}): ${e.blockedURI} in ${e.sourceFile}`),
    ),
  );
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** axe-core over the whole page (WCAG 2.x A/AA and best practices): no violations. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(summary, summary.join('\n')).toEqual([]);
}

/** Our API token for the demo admin, the way the browser gets one: emulator sign-in, then PUT /api/user. */
export async function adminApiToken(request: APIRequestContext): Promise<string> {
  const signIn = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, returnSecureToken: true }),
    },
  );
  expect(signIn.ok, `emulator sign-in answered ${signIn.status}`).toBe(true);
  const { idToken } = (await signIn.json()) as { idToken: string };
  const response = await request.put(`/api/user/${encodeURIComponent(DEMO_ADMIN.email)}`, {
    headers: { authorization: `Bearer ${idToken}` },
    data: { email: DEMO_ADMIN.email },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The scripts a page fetches until `done` resolves, with the HTTP cache off (as a first visit): each one's
 * JavaScript as transferred (the encoded body; the bench's budgets count the same, headers aside).
 * The cache is turned off through the DevTools protocol, whose Network domain must be on for it to hold.
 */
export async function coldScripts(page: Page, done: () => Promise<unknown>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const fetched: { url: string; bytes: number }[] = [];
  const pending: Promise<void>[] = [];
  const listener = (request: Request) => {
    if (request.resourceType() !== 'script') return;
    pending.push(
      request.sizes().then(
        (s) => void fetched.push({ url: request.url(), bytes: s.responseBodySize }),
        () => {},
      ),
    );
  };
  page.on('requestfinished', listener);
  await done();
  await Promise.all(pending);
  page.off('requestfinished', listener);
  await cdp.detach();
  return fetched;
}
