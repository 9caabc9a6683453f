// Configuration: bad values stop the server with a message naming them; unsafe combinations are refused.
import { describe, expect, it } from 'vitest';
import { firebaseIdentity } from '../../src/server/auth/identity';
import { ConfigError, loadConfig, startupConfigWarnings } from '../../src/server/config';

const SECRET = 's'.repeat(40);
const REAL_STRIPE = {
  STRIPE_SECRET_KEY: 'sk_live_x',
  PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};
const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 's'.repeat(40), PUBLIC_SITE_URL: 'https://shop.example.com' };
const REAL_FIREBASE = {
  PUBLIC_FIREBASE_API_KEY: 'AIza-real',
  PUBLIC_FIREBASE_AUTH_DOMAIN: 'ironcrest.firebaseapp.com',
  PUBLIC_FIREBASE_PROJECT_ID: 'ironcrest-prod',
  PUBLIC_FIREBASE_APP_ID: '1:2:web:3',
};

describe('a server refuses unsafe configurations (loadConfig with server: true)', () => {
  it.each([
    [
      'the emulator with NODE_ENV=production',
      {
        NODE_ENV: 'production',
        JWT_SECRET: SECRET,
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
        PUBLIC_FIREBASE_PROJECT_ID: 'demo-ironcrest',
      },
      'FIREBASE_AUTH_EMULATOR_HOST',
    ],
    [
      'production with no Firebase project (the emulator by default)',
      { NODE_ENV: 'production', JWT_SECRET: SECRET },
      'FIREBASE_AUTH_EMULATOR_HOST',
    ],
    [
      'the emulator with a project id not starting with demo-',
      { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', PUBLIC_FIREBASE_PROJECT_ID: 'ironcrest-prod' },
      'FIREBASE_AUTH_EMULATOR_HOST',
    ],
    [
      'the emulator host set beside a real project',
      { ...REAL_FIREBASE, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' },
      'FIREBASE_AUTH_EMULATOR_HOST',
    ],
    ['production without JWT_SECRET', { NODE_ENV: 'production', ...REAL_FIREBASE }, 'JWT_SECRET'],
    ['the emulator on a network address', { HOST: '0.0.0.0' }, 'HOST=0.0.0.0'],
    ['the emulator on a LAN address', { HOST: '192.168.1.20', NODE_ENV: 'test' }, 'PUBLIC_FIREBASE_API_KEY'],
    [
      'production without Stripe (the sandbox would take orders for free)',
      { ...PRODUCTION, ...REAL_FIREBASE },
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    ],
    [
      'production with a Stripe key but no webhook secret',
      { ...PRODUCTION, ...REAL_FIREBASE, ...REAL_STRIPE, STRIPE_WEBHOOK_SECRET: '' },
      'STRIPE_WEBHOOK_SECRET',
    ],
    [
      'production without PUBLIC_SITE_URL',
      { ...PRODUCTION, ...REAL_FIREBASE, ...REAL_STRIPE, PUBLIC_SITE_URL: '' },
      'PUBLIC_SITE_URL',
    ],
  ])('refuses %s', (_, env, named) => {
    let error = '';
    try {
      loadConfig(env, { server: true });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      error = (e as Error).message;
    }
    expect(error).toContain(named);
    expect(error, 'one line').not.toContain('\n');
    // The build and tools parse the same environment without the server rules.
    expect(() => loadConfig(env)).not.toThrow();
  });

  it.each([
    ['development defaults (the demo emulator)', {}],
    [
      'tests on a demo- project',
      {
        NODE_ENV: 'test',
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9399',
        PUBLIC_FIREBASE_PROJECT_ID: 'demo-ironcrest-test',
      },
    ],
    [
      'production with a real project, JWT_SECRET, Stripe and PUBLIC_SITE_URL',
      { ...PRODUCTION, ...REAL_FIREBASE, ...REAL_STRIPE },
    ],
    ['the emulator on loopback addresses', { HOST: '127.0.0.2' }],
    ['a real project on a network address', { HOST: '0.0.0.0', ...REAL_FIREBASE }],
  ])('accepts %s', (_, env) => {
    expect(() => loadConfig(env, { server: true })).not.toThrow();
  });

  it('the identity check refuses to start on an unsafe configuration too', () => {
    expect(() => firebaseIdentity(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }))).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST/,
    );
  });

  it('no generated JWT secret in production: the server refuses first', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...REAL_FIREBASE }, { server: true })).toThrow(/JWT_SECRET/);
  });
});

describe('loadConfig', () => {
  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '0' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '80.5' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['STRIPE_SECRET_KEY', { STRIPE_SECRET_KEY: 'pk_wrong_kind', PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }],
    ['PUBLIC_STRIPE_PUBLISHABLE_KEY', { STRIPE_SECRET_KEY: 'sk_test_x' }],
    [
      'STRIPE_WEBHOOK_SECRET',
      { STRIPE_SECRET_KEY: 'sk_test_x', PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: 'secret' },
    ],
    ['ORDER_HOLD_MINUTES', { ORDER_HOLD_MINUTES: '-1' }],
    ['SIGN_IN_RATE_LIMIT', { SIGN_IN_RATE_LIMIT: '0' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['SEED_DEMO', { SEED_DEMO: 'yes' }],
    ['WEBHOOK_ALLOW_PRIVATE', { WEBHOOK_ALLOW_PRIVATE: 'true' }],
  ])('rejects a bad %s with a message naming it', (name, env) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
  });

  it('webhooks never call private addresses unless WEBHOOK_ALLOW_PRIVATE=1, which production is warned about', () => {
    expect(loadConfig({}).webhooks).toEqual({ allowPrivate: false });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }).webhooks).toEqual({ allowPrivate: true });
    const production = {
      ...PRODUCTION,
      ...REAL_FIREBASE,
      ADMIN_EMAILS: 'owner@shop.example',
      SMTP_URL: 'smtp://mail.shop.example:587',
    };
    expect(startupConfigWarnings(loadConfig(production))).toEqual([]);
    expect(startupConfigWarnings(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: '1' }))).toEqual([
      expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=1'),
    ]);
  });

  it('reads good values', () => {
    const config = loadConfig({
      PORT: '8080',
      ADMIN_EMAILS: ' A@X.io, b@y.io ,',
      ORDER_HOLD_MINUTES: '2',
      ...REAL_FIREBASE,
    });
    expect(config).toMatchObject({
      port: 8080,
      adminEmails: ['a@x.io', 'b@y.io'],
      orderHoldMs: 2 * 60_000,
      firebase: { projectId: 'ironcrest-prod', emulatorHost: undefined },
    });
  });
});
