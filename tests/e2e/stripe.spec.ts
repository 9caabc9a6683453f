// The Stripe path of the payment page, without the internet: Stripe.js (js.stripe.com) is a local stand-in
// served through page.route, and the intent answer says the store runs on Stripe.
import { expect, test } from '@playwright/test';
import { DEMO_SHOPPER, apiAs, login } from './fixtures';

const STRIPE_STAND_IN = `
window.Stripe = function (key) {
  window.__stripeKey = key;
  const element = {
    mount(node) {
      const el = typeof node === 'string' ? document.querySelector(node) : node;
      el.innerHTML = '<input aria-label="Stripe card field" data-testid="stripe-card">';
    },
    on() { return element; }, off() { return element; }, once() { return element; },
    update() {}, unmount() {}, destroy() {}, focus() {}, blur() {}, clear() {},
  };
  const elements = { create() { return element; }, getElement() { return element; }, update() {} };
  return {
    elements() { return elements; },
    _registerWrapper() {}, registerAppInfo() {}, async createToken() { return {}; },
    async createPaymentMethod() { return { error: { message: 'Your card number is incomplete.' } }; },
    async confirmCardPayment() { return { error: { message: 'not reached' } }; },
  };
};
window.Stripe.version = 'endive';`;

test.use({ bypassCSP: true });

test('the Stripe card form renders and shows Stripe errors in red', async ({ page }) => {
  await login(page, DEMO_SHOPPER);
  const tools = await (await page.request.get('/api/tools')).json();
  const tool = tools[0];
  const placed = await apiAs(page, 'POST', 'booking', {
    toolId: tool._id,
    quantity: tool.minimumOrderQuantity,
    address: 'Dhaka',
    phone: '01712345678',
  });
  expect(placed.status).toBe(201);

  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: STRIPE_STAND_IN }),
  );
  await page.route('**/api/create-payment-intent', (route) =>
    route.fulfill({
      json: {
        clientSecret: 'pi_test_123_secret_abc',
        amountCents: 100,
        gateway: 'stripe',
        publishableKey: 'pk_test_standin',
      },
    }),
  );
  await page.goto(`/dashboard/payment/${placed.data.insertedId}`);
  await expect(page.getByTestId('stripe-card')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __stripeKey: string }).__stripeKey)).toBe('pk_test_standin');
  await expect(page.getByText('Sandbox — no real money')).toBeHidden();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByTestId('card-error')).toHaveText('Your card number is incomplete.');
  await expect(page.getByTestId('card-error')).toHaveCSS('color', 'rgb(180, 35, 24)');
});
