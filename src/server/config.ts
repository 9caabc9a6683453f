// The environment, parsed once with zod. A bad value stops the process with a message naming it.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const emails = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );

export const DEMO_PROJECT_ID = 'demo-ironcrest';
export const DEMO_ADMIN = { email: 'admin@ironcrest.test', password: 'admin-pass-123', name: 'Ada Admin' };
export const DEMO_SHOPPER = { email: 'shopper@ironcrest.test', password: 'shopper-pass-123', name: 'Sam Shopper' };

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.url().optional(),
  PUBLIC_FIREBASE_API_KEY: z.string().optional(),
  PUBLIC_FIREBASE_AUTH_DOMAIN: z.string().optional(),
  PUBLIC_FIREBASE_PROJECT_ID: z.string().optional(),
  PUBLIC_FIREBASE_APP_ID: z.string().optional(),
  FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
  PUBLIC_STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
  /** Only for tests: point the Stripe SDK at a local stand-in (http://127.0.0.1:port). */
  STRIPE_API_BASE: z.url().optional(),
  IMGBB_API_KEY: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAILS: emails,
  ORDER_HOLD_HOURS: z.coerce.number().positive().default(24),
  /** Token exchanges (PUT /api/user) allowed per client address per minute. */
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
  /** Seed demo data into an empty database (on by default; set to 0 for a bare production store). */
  SEED_DEMO: z.enum(['0', '1']).default('1'),
});

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const firebaseProjectId = e.PUBLIC_FIREBASE_PROJECT_ID ?? DEMO_PROJECT_ID;
  const useEmulator = !e.PUBLIC_FIREBASE_API_KEY || Boolean(e.FIREBASE_AUTH_EMULATOR_HOST);
  const emulatorHost = e.FIREBASE_AUTH_EMULATOR_HOST ?? (useEmulator ? '127.0.0.1:9099' : undefined);

  if (e.STRIPE_SECRET_KEY && !e.PUBLIC_STRIPE_PUBLISHABLE_KEY) {
    throw new ConfigError('Invalid configuration:\n  PUBLIC_STRIPE_PUBLISHABLE_KEY: required with STRIPE_SECRET_KEY');
  }

  const dataDir = path.resolve(e.DATA_DIR);
  const adminEmails = e.ADMIN_EMAILS.length ? e.ADMIN_EMAILS : [DEMO_ADMIN.email];
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    firebase: { projectId: firebaseProjectId, emulatorHost },
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          publishableKey: e.PUBLIC_STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          apiBase: e.STRIPE_API_BASE,
        }
      : undefined,
    imgbbApiKey: e.IMGBB_API_KEY,
    jwtSecret: e.JWT_SECRET,
    adminEmails,
    orderHoldMs: e.ORDER_HOLD_HOURS * 3600_000,
    signInRateLimit: e.SIGN_IN_RATE_LIMIT,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO === '1',
  };
}

/** JWT_SECRET, or one generated once and kept in DATA_DIR so tokens survive restarts. */
export function jwtSecret(config: Config): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (config.production) throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/**
 * In emulator mode firebase-admin accepts unsigned ID tokens: refuse that outside a demo project.
 * Checked when the server starts (not at build time, where Astro forces NODE_ENV=production).
 * Also refuses a production server without JWT_SECRET.
 */
export function startupConfigError(cfg: Config): string | null {
  if (cfg.production && !cfg.jwtSecret) return 'Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production';
  if (cfg.firebase.emulatorHost && (cfg.production || !cfg.firebase.projectId.startsWith('demo-'))) {
    return 'Invalid configuration:\n  FIREBASE_AUTH_EMULATOR_HOST: the auth emulator accepts unsigned tokens; it is refused when NODE_ENV=production or the Firebase project id does not start with "demo-". Set PUBLIC_FIREBASE_API_KEY, PUBLIC_FIREBASE_AUTH_DOMAIN and PUBLIC_FIREBASE_PROJECT_ID of a real project.';
  }
  return null;
}

let cached: Config | undefined;
/** The process's configuration (parsed on first use). */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
