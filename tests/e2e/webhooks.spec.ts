// Issue 29, outgoing webhooks in the browser: an admin adds an endpoint (a receiver run by this test),
// copies its secret, shown once; a tool added reaches the receiver, signed; the delivery log shows it;
// Replay sends it again with the same webhook-id; Delete asks first. A paused endpoint says why and can
// be resumed. At 390 and 1280 px, light and dark: no sideways scroll, no axe violations (screenshots).
import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import type { WebhookDelivery, WebhookEndpoint } from '../../src/lib/entities';
import { startReceiver, verify, type Receiver } from '../api/webhook-receiver';
import { DEMO_ADMIN, expectNoAxeViolations } from './fixtures';
import { confirmDialog, createTool, loginHydrated, rowWith, toastSaying } from './dashboard-fixtures';

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(() => receiver.close());

const card = (page: Page, url: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: url }) });

async function looks(page: Page, name: string) {
  // Once the toasts have gone: their colours are react-toastify's theme, not this screen's.
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 15_000 });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `test-results/webhooks-${name}-${colorScheme}-${width}.png`, fullPage: true });
    }
    await expectNoAxeViolations(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an admin adds an endpoint, keeps its secret, sees a delivery arrive and replays it', async ({ page }) => {
  test.slow(); // a build's first screens, screenshots in two schemes
  const url = `${receiver.url}/${Date.now()}`;
  await loginHydrated(page, DEMO_ADMIN, '/dashboard/webhooks');
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  // The form checks before sending.
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByText(messages.webhookUrlInvalid)).toBeVisible();
  await expect(page.getByText(messages.webhookEventsRequired)).toBeVisible();
  await looks(page, 'form-errors');

  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByRole('checkbox', { name: /^tool\.created/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(toastSaying(page, messages.webhookCreated)).toBeVisible();
  const box = page.getByTestId('webhook-secret');
  await expect(box).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const secret = (await box.textContent())!;
  await expect(page.getByText(messages.webhookSecretOnce)).toBeVisible();
  await looks(page, 'secret');
  await page.getByRole('button', { name: 'I have kept it' }).click();
  await expect(box).toBeHidden();
  const endpoint = card(page, url);
  await expect(endpoint).toContainText('Active');
  await expect(endpoint).toContainText('tool.created');
  // Shown once: nowhere on the page now.
  expect(await page.content()).not.toContain(secret.slice(6));

  // A tool added reaches the receiver, signed with that secret.
  const from = receiver.received.length;
  const toolName = `Webhook Mallet ${Date.now()}`;
  const toolId = await createTool({ name: toolName });
  const [delivery] = (await receiver.waitFor(from + 1)).slice(from);
  expect(verify(secret, delivery)).toBe(true);
  expect(delivery.payload).toMatchObject({ type: 'tool.created', data: { _id: toolId, name: toolName } });

  // The log shows it; Replay sends it again with the same webhook-id.
  await endpoint.getByRole('button', { name: /^Show deliveries/ }).click();
  const row = rowWith(page, delivery.id);
  await expect(row).toContainText('Delivered');
  await expect(row).toContainText(/200 · \d+ ms/);
  await expect(row).toContainText('1 attempt');
  await looks(page, 'log');
  await row.getByRole('button', { name: /^Replay/ }).click();
  await expect(toastSaying(page, messages.webhookReplayed)).toBeVisible();
  const [again] = (await receiver.waitFor(from + 2)).slice(from + 1);
  expect(again.id).toBe(delivery.id);
  expect(verify(secret, again)).toBe(true);
  await expect(row).toContainText('Delivered');

  // Delete asks first.
  await endpoint.getByRole('button', { name: /^Delete/ }).click();
  await expect(confirmDialog(page).getByRole('heading', { name: messages.confirmTitle })).toBeVisible();
  await confirmDialog(page).getByRole('button', { name: 'Delete' }).click();
  await expect(toastSaying(page, messages.webhookDeleted)).toBeVisible();
  await expect(endpoint).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(card(page, url)).toBeHidden();
});

test('a paused endpoint shows why, and Resume makes it active', async ({ page }) => {
  // The pause itself takes a day of failures (the API tests play it); here the screen's part of it.
  const paused: WebhookEndpoint = {
    id: 'abcdefabcdefabcdefabcdef',
    url: 'https://erp.example.com/hooks/ironcrest',
    events: ['order.paid', 'order.refunded', 'stock.low'],
    state: 'paused',
    pausedReason:
      'No delivery succeeded for 26 hours: 11 attempts of one event failed, the last with HTTP 503: down for maintenance',
    pausedAt: new Date().toISOString(),
    createdAt: new Date(Date.now() - 7 * 86_400_000).toISOString(),
    createdBy: DEMO_ADMIN.email,
    pending: 4,
    failed: 1,
    lastSuccessAt: new Date(Date.now() - 30 * 3_600_000).toISOString(),
  };
  let current = paused;
  await page.route('**/api/webhooks', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: [current] }) : route.fallback(),
  );
  await page.route(`**/api/webhooks/${paused.id}/resume`, (route) => {
    current = { ...paused, state: 'active', pausedReason: null, pausedAt: null };
    return route.fulfill({ json: current });
  });
  const hour = 3_600_000;
  const log: WebhookDelivery[] = [
    {
      id: `msg_${'a'.repeat(32)}`,
      eventType: 'order.paid',
      subject: 'abcdefabcdefabcdef000001',
      state: 'pending',
      attempts: 0,
      responseStatus: null,
      durationMs: null,
      error: null,
      lastAttemptAt: null,
      nextAttemptAt: new Date().toISOString(),
      createdAt: new Date().toISOString(),
    },
    {
      id: `msg_${'b'.repeat(32)}`,
      eventType: 'stock.low',
      subject: 'abcdefabcdefabcdef000002',
      state: 'failed',
      attempts: 11,
      responseStatus: 503,
      durationMs: 84,
      error: 'HTTP 503: down for maintenance',
      lastAttemptAt: new Date().toISOString(),
      nextAttemptAt: null,
      createdAt: new Date(Date.now() - 26 * hour).toISOString(),
    },
  ];
  await page.route(`**/api/webhooks/${paused.id}/deliveries?*`, (route) =>
    route.fulfill({ json: { items: log, total: log.length, nextCursor: null } }),
  );
  await loginHydrated(page, DEMO_ADMIN, '/dashboard/webhooks');
  const endpoint = card(page, paused.url);
  await expect(endpoint).toContainText('Paused');
  await expect(endpoint.getByRole('status')).toContainText(paused.pausedReason!);
  await expect(endpoint).toContainText('4 waiting');
  // Its log: Replay waits for Resume.
  await endpoint.getByRole('button', { name: /^Show deliveries/ }).click();
  await expect(rowWith(page, 'stock.low')).toContainText('HTTP 503: down for maintenance');
  await expect(rowWith(page, 'stock.low').getByRole('button', { name: /^Replay/ })).toBeDisabled();
  await looks(page, 'paused');
  await endpoint.getByRole('button', { name: /^Resume/ }).click();
  await expect(toastSaying(page, messages.webhookResumed)).toBeVisible();
  await expect(endpoint).toContainText('Active');
  await expect(endpoint.getByRole('button', { name: /^Resume/ })).toBeHidden();
});
