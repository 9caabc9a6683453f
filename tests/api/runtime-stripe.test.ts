// The runtime loads Stripe's SDK only where Stripe is configured (runtime.ts): with the keys, payments go
// through Stripe and its webhook checks signatures; without them, the sandbox pays and there is no webhook.
import { afterEach, expect, it } from 'vitest';
import type { Runtime } from '../../src/server/runtime';
import { openTestRuntime } from './harness';

let opened: Awaited<ReturnType<typeof openTestRuntime>> | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

const webhook = (r: Runtime) =>
  r.app.request('/api/webhooks/stripe', {
    method: 'POST',
    body: '{"type":"payment_intent.succeeded"}',
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
  });

it('with Stripe keys, the webhook checks Stripe signatures (a forged one is refused)', async () => {
  opened = await openTestRuntime({
    STRIPE_SECRET_KEY: 'sk_test_runtime',
    PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_runtime',
    STRIPE_WEBHOOK_SECRET: 'whsec_runtime',
    STRIPE_API_BASE: 'http://127.0.0.1:9',
  });
  expect((await webhook(opened.runtime)).status).toBe(400);
}, 60_000);

it('without them, the sandbox takes payments and there is no Stripe webhook', async () => {
  opened = await openTestRuntime();
  expect((await webhook(opened.runtime)).status).toBe(404);
}, 60_000);
