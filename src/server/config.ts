// The environment, parsed once with zod. A bad value stops the process with a message naming it.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BRAND } from '../lib/brand.ts';
import { withoutTrailingSlashes } from '../lib/text.ts';
import { memoise } from './caching/cache.ts';

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
  /** The embedded database's buffer cache (PostgreSQL's shared_buffers; unset: db/pglite.ts's DEFAULT_SHARED_BUFFERS). */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'must be a size such as 32MB')
    .optional(),
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
  /** How long an unpaid order holds its units (checkout reservations are minutes, not a day). */
  ORDER_HOLD_MINUTES: z.coerce.number().positive().default(30),
  /** Unpaid orders one user may hold at once; the next is refused with 409. */
  MAX_UNPAID_ORDERS: z.coerce.number().int().positive().default(3),
  /** Token exchanges (PUT /api/user) allowed per client address per minute. */
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  /** Orders (POST /api/booking) one user may place per minute. */
  BOOKING_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Reviews (POST /api/review) one user may post per hour. */
  REVIEW_RATE_LIMIT: z.coerce.number().int().positive().default(5),
  /** The public origin (https://shop.example.com): canonical links, sitemap, origin checks. Required in production. */
  PUBLIC_SITE_URL: z.url().optional(),
  /** Trusted proxy hops in front of the server (1 = nginx, 2 = a CDN then nginx); 0 ignores X-Forwarded-For. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Prometheus metrics on this port, bound to loopback (unset: only with METRICS_TOKEN at /metrics). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Bearer token that opens /metrics on the public port. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
  /** Seed demo data into an empty database (on by default; set to 0 for a bare production store). */
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  /** Where the store's emails go out (smtp://user:pass@host:587, smtps://…); unset, they are kept for the Emails screen. */
  SMTP_URL: z
    .url()
    .refine((u) => /^smtps?:$/.test(new URL(u).protocol), 'must start with smtp:// or smtps://')
    .optional(),
  /** The From of every email, e.g. Ironcrest Tools <no-reply@shop.example.com>. */
  MAIL_FROM: z.string().min(3).max(200).optional(),
  /** Where the shop is told of paid orders, contact messages and low stock. */
  SHOP_EMAIL: z.email().optional(),
  /** The seller block of invoices and credit notes. */
  SHOP_NAME: z.string().min(1).max(120).optional(),
  SHOP_ADDRESS: z.string().min(1).max(300).optional(),
  SHOP_TAX_ID: z.string().min(1).max(60).optional(),
  /** A sale that takes a tool below this many units tells the shop (unset: the tool's minimum order × 2). */
  LOW_STOCK_UNITS: z.coerce.number().int().min(0).optional(),
  /** How long a server keeps serving a replaced build's hashed assets, for pages opened before a publish. */
  ASSET_GRACE_MINUTES: z.coerce.number().min(0).max(10_080).default(60),
  /** Let webhooks call loopback, private and link-local addresses (tests; a receiver on the shop's own network). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /**
   * Check every API answer against its contract (src/lib/contracts/): a mismatch becomes a 500 naming it.
   * On by default in tests (NODE_ENV=test); the browser tests set it; a shop has no use for it.
   */
  CHECK_RESPONSES: z.enum(['0', '1']).optional(),
});

type Env = z.output<typeof envSchema>;

function toConfig(e: Env) {
  const production = e.NODE_ENV === 'production';
  const firebaseProjectId = e.PUBLIC_FIREBASE_PROJECT_ID ?? DEMO_PROJECT_ID;
  const useEmulator = !e.PUBLIC_FIREBASE_API_KEY || Boolean(e.FIREBASE_AUTH_EMULATOR_HOST);
  const emulatorHost = e.FIREBASE_AUTH_EMULATOR_HOST ?? (useEmulator ? '127.0.0.1:9099' : undefined);

  const dataDir = path.resolve(e.DATA_DIR);
  // The demo admin exists only beside the local emulator, where its account is made by npm start.
  const adminEmails = e.ADMIN_EMAILS.length ? e.ADMIN_EMAILS : useEmulator ? [DEMO_ADMIN.email] : [];
  return {
    production,
    /** Identity is the local Auth emulator (demo mode): demo accounts and the sandbox exist only here. */
    emulator: Boolean(emulatorHost),
    adminEmailsGiven: e.ADMIN_EMAILS.length > 0,
    siteUrl: e.PUBLIC_SITE_URL && withoutTrailingSlashes(e.PUBLIC_SITE_URL),
    trustProxy: e.TRUST_PROXY,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
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
    orderHoldMs: e.ORDER_HOLD_MINUTES * 60_000,
    assetGraceMs: e.ASSET_GRACE_MINUTES * 60_000,
    checkResponses: e.CHECK_RESPONSES === undefined ? e.NODE_ENV === 'test' : e.CHECK_RESPONSES === '1',
    maxUnpaidOrders: e.MAX_UNPAID_ORDERS,
    signInRateLimit: e.SIGN_IN_RATE_LIMIT,
    bookingRateLimit: e.BOOKING_RATE_LIMIT,
    reviewRateLimit: e.REVIEW_RATE_LIMIT,
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO === '1',
    mail: {
      smtpUrl: e.SMTP_URL,
      from:
        e.MAIL_FROM ??
        `${e.SHOP_NAME ?? BRAND} <no-reply@${new URL(e.PUBLIC_SITE_URL ?? 'http://localhost').hostname}>`,
      shopEmail: e.SHOP_EMAIL ?? adminEmails[0],
    },
    shop: {
      name: e.SHOP_NAME ?? BRAND,
      address: e.SHOP_ADDRESS ?? '12 Forge Lane\nTejgaon Industrial Area\nDhaka 1208, Bangladesh',
      taxId: e.SHOP_TAX_ID,
      siteUrl: withoutTrailingSlashes(e.PUBLIC_SITE_URL ?? 'http://localhost:4321'),
    },
    lowStockUnits: e.LOW_STOCK_UNITS,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === '1' },
  };
}

/** What every process (server, build, scripts) needs to parse. */
const configSchema = envSchema
  .superRefine((e, ctx) => {
    if (e.STRIPE_SECRET_KEY && !e.PUBLIC_STRIPE_PUBLISHABLE_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_STRIPE_PUBLISHABLE_KEY'],
        message: 'required with STRIPE_SECRET_KEY',
      });
    }
  })
  .transform(toConfig);

export type Config = z.output<typeof configSchema>;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/**
 * What a server refuses to start with: each refusal names its variable and the fix, in one line.
 * Not applied at build time, where Astro forces NODE_ENV=production.
 */
export function serverRefusals(cfg: Config): { variable: string; message: string }[] {
  const refusals: { variable: string; message: string }[] = [];
  const refuse = (variable: string, message: string) => refusals.push({ variable, message });
  if (cfg.production && !cfg.jwtSecret)
    refuse('JWT_SECRET', 'JWT_SECRET is required when NODE_ENV=production (set it to 32+ random characters).');
  // In emulator mode firebase-admin accepts unsigned ID tokens: anyone who can reach the server could forge one.
  if (cfg.firebase.emulatorHost && (cfg.production || !cfg.firebase.projectId.startsWith('demo-'))) {
    refuse(
      'FIREBASE_AUTH_EMULATOR_HOST',
      'FIREBASE_AUTH_EMULATOR_HOST (the auth emulator accepts unsigned tokens) is refused when NODE_ENV=production or the Firebase project id does not start with "demo-"; set PUBLIC_FIREBASE_API_KEY, PUBLIC_FIREBASE_AUTH_DOMAIN and PUBLIC_FIREBASE_PROJECT_ID of a real project.',
    );
  } else if (cfg.firebase.emulatorHost && !LOOPBACK.test(cfg.host)) {
    refuse(
      'HOST',
      `HOST=${cfg.host} with the Firebase Auth emulator would let anyone on the network forge sign-in tokens; set PUBLIC_FIREBASE_API_KEY, PUBLIC_FIREBASE_AUTH_DOMAIN and PUBLIC_FIREBASE_PROJECT_ID of a real project, or keep HOST=127.0.0.1.`,
    );
  }
  if (cfg.production && (!cfg.stripe || !cfg.stripe.webhookSecret)) {
    refuse(
      'STRIPE_SECRET_KEY',
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required when NODE_ENV=production (without them the sandbox would mark orders paid for free); set both from your Stripe dashboard.',
    );
  }
  if (cfg.production && !cfg.siteUrl) {
    refuse(
      'PUBLIC_SITE_URL',
      'PUBLIC_SITE_URL is required when NODE_ENV=production; set it to the public origin, e.g. PUBLIC_SITE_URL=https://shop.example.com.',
    );
  }
  return refusals;
}

/** A server's configuration: the same, plus the production rules. */
const serverConfigSchema = configSchema.superRefine((cfg, ctx) => {
  for (const { variable, message } of serverRefusals(cfg))
    ctx.addIssue({ code: 'custom', path: [variable], message, params: { refusal: true } });
});

export class ConfigError extends Error {}

/**
 * Parses the environment. With `server`, also refuses an unsafe server (scripts/start.ts and
 * src/server/main.ts); the build and tools parse without it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, { server = false } = {}): Config {
  // An empty value (`KEY=` in .env) means unset.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = (server ? serverConfigSchema : configSchema).safeParse(given);
  if (parsed.success) return parsed.data;
  // One line for the operator: the first refusal (the next shows once that one is fixed).
  const refusal = parsed.error.issues.find((i) => i.code === 'custom' && i.params?.refusal);
  if (refusal) throw new ConfigError(`Invalid configuration: ${refusal.message}`);
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** JWT_SECRET, or (outside production, see serverRefusals) one generated once and kept in DATA_DIR so tokens survive restarts. */
export function jwtSecret(config: Config): Uint8Array<ArrayBuffer> {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/** Safe but worth saying at start (logged as warnings). */
export function startupConfigWarnings(cfg: Config): string[] {
  const warnings: string[] = [];
  if (!cfg.emulator && !cfg.adminEmailsGiven) {
    warnings.push(
      "ADMIN_EMAILS is not set: nobody can become an admin. Set ADMIN_EMAILS to the verified emails of the shop's admins.",
    );
  }
  if (cfg.production && !cfg.mail.smtpUrl) {
    warnings.push(
      "SMTP_URL is not set: the store's emails are kept on the admin's Emails screen, not sent. Set SMTP_URL (e.g. smtp://user:pass@host:587) and MAIL_FROM.",
    );
  }
  if (cfg.production && cfg.webhooks.allowPrivate) {
    warnings.push(
      'WEBHOOK_ALLOW_PRIVATE=1: webhooks may call loopback and private addresses, so an admin account can reach services on the internal network. Unset it unless a receiver lives there.',
    );
  }
  return warnings;
}

/** The process's configuration (parsed on first use). */
export const config = memoise(loadConfig);
