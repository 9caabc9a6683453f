import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Debian's Chromium when present (no browser download on this machine), else Playwright's own.
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
export const E2E_EMULATOR = process.env.E2E_EMULATOR_HOST ?? '127.0.0.1:9299';
/** `npm run edit` under tests/e2e/editor-*.spec.ts. */
export const E2E_EDIT_PORT = Number(process.env.E2E_EDIT_PORT ?? E2E_PORT + 1);
/** The browser tests' store: `npm run publish` with these publishes into it. */
export const E2E_STORE_ENV = {
  PORT: String(E2E_PORT),
  DATA_DIR: process.env.E2E_DATA_DIR ?? '.data-e2e',
  DIST_DIR: process.env.E2E_DIST_DIR ?? 'dist-e2e',
  FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR,
};
const EDITOR_SPECS = /editor-[\w-]+\.spec\.ts/;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'] }, testIgnore: EDITOR_SPECS },
    // The content editor rewrites content files and publishes a seventh post into the store, whose /blogs
    // the other specs expect with six: after all of them (alone: `npx playwright test --project editor --no-deps`).
    { name: 'editor', use: { ...devices['Desktop Chrome'] }, testMatch: EDITOR_SPECS, dependencies: ['chromium'] },
  ],
  webServer: {
    // The built store with its own data, build and emulator, so it never touches a developer's store.
    command: 'node scripts/e2e-server.ts',
    url: `http://127.0.0.1:${E2E_PORT}/api/ready`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      ...E2E_STORE_ENV,
      ADMIN_EMAILS: 'admin@ironcrest.test',
      LOG_LEVEL: 'warn',
      ORDER_HOLD_MINUTES: '1440',
      // Every browser test signs in from 127.0.0.1; the default 30 a minute is for real clients.
      SIGN_IN_RATE_LIMIT: '1000',
      // The webhook receivers of tests/e2e/webhooks.spec.ts listen on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: '1',
      // Every API answer the pages get is checked against its contract (a mismatch is a 500 naming it).
      CHECK_RESPONSES: '1',
    },
  },
});
