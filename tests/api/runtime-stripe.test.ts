// The runtime loads Stripe's SDK only where Stripe is configured (runtime.ts): with the keys, payments go
// through Stripe and its webhook checks signatures; without them, the sandbox pays and there is no webhook.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { openRuntime, type Runtime } from '../../src/server/runtime';
import { PROJECT_ID } from './harness';

let runtime: Runtime | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await runtime?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  runtime = dataDir = undefined;
});

async function open(env: Record<string, string>) {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-runtime-stripe-'));
  runtime = await openRuntime(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      PUBLIC_FIREBASE_PROJECT_ID: PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      ...env,
    }),
  );
  return runtime;
}

const webhook = (r: Runtime) =>
  r.app.request('/api/webhooks/stripe', {
    method: 'POST',
    body: '{"type":"payment_intent.succeeded"}',
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
  });

it('with Stripe keys, the webhook checks Stripe signatures (a forged one is refused)', async () => {
  const r = await open({
    STRIPE_SECRET_KEY: 'sk_test_runtime',
    PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_runtime',
    STRIPE_WEBHOOK_SECRET: 'whsec_runtime',
    STRIPE_API_BASE: 'http://127.0.0.1:9',
  });
  expect((await webhook(r)).status).toBe(400);
}, 60_000);

it('without them, the sandbox takes payments and there is no Stripe webhook', async () => {
  const r = await open({});
  expect((await webhook(r)).status).toBe(404);
}, 60_000);
