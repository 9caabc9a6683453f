// Helpers for the dashboard tests: fresh accounts and API calls made from the test process (not a
// page), so a test can set up users, tools and paid orders without driving other screens.
import { expect, type Locator, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { DEMO_PROJECT_ID } from '../../src/server/config';
import { DEMO_ADMIN, EMULATOR, login, uniqueEmail } from './fixtures';

const BASE = `http://localhost:${E2E_PORT}`;

export interface Account {
  email: string;
  password: string;
  name: string;
  /** Our API access token for this account. */
  token: string;
}

async function emulator<T>(action: string, body: unknown): Promise<T> {
  const response = await fetch(`${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:${action}?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok, `emulator ${action} answered ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

/** PUT /api/user/{email}: the Firebase ID token for our access token (creates the user record). */
async function exchange(email: string, idToken: string): Promise<string> {
  const response = await fetch(`${BASE}/api/user/${encodeURIComponent(email)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/**
 * A new shopper: signed up in the emulator with a display name, and known to the store. Verified by
 * default, as a shopper who followed the verification mail is (roles above user need it).
 */
export async function newAccount(
  name = 'Test Shopper',
  prefix = 'shopper',
  { verified = true } = {},
): Promise<Account> {
  const email = uniqueEmail(prefix);
  const password = 'test-pass-123';
  const { idToken, localId } = await emulator<{ idToken: string; localId: string }>('signUp', {
    email,
    password,
    returnSecureToken: true,
  });
  await emulator('update', { idToken, displayName: name, returnSecureToken: true });
  if (verified) {
    // The emulator's owner API plays the link in the verification mail.
    const response = await fetch(
      `${EMULATOR}/identitytoolkit.googleapis.com/v1/projects/${DEMO_PROJECT_ID}/accounts:update`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ localId, emailVerified: true }),
      },
    );
    expect(response.ok, `emulator verify answered ${response.status}`).toBe(true);
  }
  // A fresh sign-in so the ID token carries the display name.
  const signedIn = await emulator<{ idToken: string }>('signInWithPassword', {
    email,
    password,
    returnSecureToken: true,
  });
  return { email, password, name, token: await exchange(email, signedIn.idToken) };
}

/** The API access token of an existing account (e.g. the demo admin). */
export async function tokenOf(account: { email: string; password: string }): Promise<string> {
  const { idToken } = await emulator<{ idToken: string }>('signInWithPassword', {
    ...account,
    returnSecureToken: true,
  });
  return exchange(account.email, idToken);
}

let adminToken: string | undefined;
export const demoAdminToken = async () => (adminToken ??= await tokenOf(DEMO_ADMIN));

/** Calls the API with a token from the test process. */
export async function apiWith<T = any>(
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: T }> {
  const response = await fetch(`${BASE}/api/${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, data: (await response.json().catch(() => null)) as T };
}

/** A tool created by the demo admin through the API; returns its id. */
export async function createTool(tool: {
  name: string;
  price?: number;
  minimumOrderQuantity?: number;
  availableQuantity?: number;
  img?: string;
}): Promise<string> {
  const { status, data } = await apiWith<{ insertedId: string }>(await demoAdminToken(), 'POST', 'tools', {
    description: 'A tool made for the dashboard tests.',
    price: 12.5,
    minimumOrderQuantity: 1,
    availableQuantity: 100,
    img: '/images/tools/rubber-mallet.svg',
    ...tool,
  });
  expect(status, JSON.stringify(data)).toBe(201);
  return data.insertedId;
}

/** Places an order as the buyer; with `pay`, pays it through the sandbox gateway like the payment page. */
export async function placeOrder(
  buyer: Account,
  toolId: string,
  quantity: number,
  pay: boolean,
): Promise<{ id: string; transactionId?: string }> {
  const placed = await apiWith<{ insertedId: string }>(buyer.token, 'POST', 'booking', {
    toolId,
    quantity,
    address: '12 Forge Lane, Dhaka',
    phone: '01712345678',
  });
  expect(placed.status, JSON.stringify(placed.data)).toBe(201);
  const id = placed.data.insertedId;
  if (!pay) return { id };
  const intent = await apiWith<{ clientSecret: string }>(buyer.token, 'POST', 'create-payment-intent', { orderId: id });
  expect(intent.status, JSON.stringify(intent.data)).toBe(200);
  const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
  const confirmed = await apiWith<{ paymentIntent: { id: string } }>(buyer.token, 'POST', 'sandbox/confirm', {
    clientSecret: intent.data.clientSecret,
    card,
  });
  expect(confirmed.status, JSON.stringify(confirmed.data)).toBe(200);
  const transactionId = confirmed.data.paymentIntent.id;
  const paid = await apiWith(buyer.token, 'PUT', `booking/makepayment/${id}`, { appointment: id, transactionId });
  expect(paid.status, JSON.stringify(paid.data)).toBe(200);
  return { id, transactionId };
}

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
  'base64',
);

/** Logs in and lands on `from`. (The login form stays disabled until it hydrates, so nothing typed is lost.) */
export const loginHydrated = (page: Page, account: { email: string; password: string }, from: string) =>
  login(page, account, from);

/** The dashboard's side menu. */
export const dashboardMenu = (page: Page): Locator => page.getByRole('navigation', { name: 'Dashboard' });

/** The table row (or stacked card) that mentions a text. */
export const rowWith = (page: Page, text: string): Locator => page.getByRole('row').filter({ hasText: text });

/** The one toast that says exactly this. */
export const toastSaying = (page: Page, text: string): Locator => page.getByRole('alert').filter({ hasText: text });

/** The confirmation dialog. */
export const confirmDialog = (page: Page): Locator => page.getByRole('dialog');
