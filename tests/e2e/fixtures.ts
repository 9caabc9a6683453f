// Shared helpers for the browser tests: the demo accounts, the emulator, sign-in through the real UI.
import { expect, type Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_PROJECT_ID, DEMO_SHOPPER } from '../../src/server/config';
import { E2E_EMULATOR } from '../../playwright.config';

export { DEMO_ADMIN, DEMO_SHOPPER };
export const EMULATOR = `http://${E2E_EMULATOR}`;

/** Verification and reset codes the emulator recorded for an email. */
export async function oobCodes(email: string): Promise<{ email: string; requestType: string; oobCode: string }[]> {
  const response = await fetch(`${EMULATOR}/emulator/v1/projects/${DEMO_PROJECT_ID}/oobCodes`);
  const { oobCodes } = (await response.json()) as { oobCodes: { email: string; requestType: string; oobCode: string }[] };
  return oobCodes.filter((c) => c.email === email);
}

export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Logs in through the login page and waits until the header shows the signed-in state. */
export async function login(page: Page, account: { email: string; password: string }, from?: string) {
  await page.goto(from ? `/login?from=${encodeURIComponent(from)}` : '/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
}

/** The API as a signed-in browser session calls it (token from localStorage). */
export async function apiAs(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(`/api/${path}`, {
        method,
        headers: { authorization: `Bearer ${localStorage.getItem('accessToken')}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, data: await response.json().catch(() => null) };
    },
    { method, path, body },
  );
}
