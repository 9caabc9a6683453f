// The runtime: everything the API needs, built once per process from the configuration. The outer
// server (main.ts) owns it, serves /api with its app and hands it to Astro pages as `locals.runtime`;
// `astro dev` builds one through src/middleware.ts. Nothing else opens the database.
import type Stripe from 'stripe';
import type { Config } from './config.ts';
import { jwtSecret } from './config.ts';
import { createApp, type Api } from './app.ts';
import { firebaseIdentity } from './auth/identity.ts';
import { memoryBus, notifyOn, postgresBus, type ChangeBus } from './caching/changes.ts';
import { liveSearchIndex, type LiveSearchIndex } from './host/search-index.ts';
import { PG_TIMEOUTS, type Db } from './db/client.ts';
import { loadPg } from './db/postgres.ts';
import { openDb } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { pgliteVacuum } from './db/pglite-vacuum.ts';
import { postgresRateLimitStore } from './db/rate-limit-store.ts';
import { seedIfEmpty } from './db/seed.ts';
import { memoryRateLimitStore } from './http/rate-limit.ts';
import { databaseImageStorage, diskImageStorage, imgbbImageStorage } from './images/storage.ts';
import { logger } from './observability/logger.ts';
import { sandboxGateway } from './payments/sandbox.ts';
import type { PaymentGateway } from './ports.ts';

export interface Runtime extends Api {
  db: Db;
  changes: ChangeBus;
  /** The header search's Pagefind index of the live catalogue (served at /pagefind/). */
  search: LiveSearchIndex;
  /** Ends the warm-up that `openRuntime(…, { warmUp: true })` began: /api/ready may say ready. */
  warmedUp(): void;
  close(): Promise<void>;
}

/** The longest the hold timer sleeps (a hold placed on another server is seen within it). */
const SWEEP_MS = 30_000;
/** When a hold that ran out could not be let go (its payment provider did not answer), the next try. */
const UNSETTLED_RETRY_MS = 5_000;

/**
 * `warmUp`: the server warms its code up before its first traffic (main.ts), and /api/ready answers 503
 * until `warmedUp()`, so a proxy or orchestrator sends it nothing meanwhile.
 */
export async function openRuntime(cfg: Config, { warmUp = false } = {}): Promise<Runtime> {
  const warming = { on: warmUp };
  const started = Date.now();
  const db = await openDb({
    databaseUrl: cfg.databaseUrl,
    dataDir: cfg.dataDir,
    sharedBuffers: cfg.pgliteSharedBuffers,
  });
  try {
    const applied = await migrate(db);
    if (cfg.seedDemo) await seedIfEmpty(db, { demoAccounts: cfg.emulator });
    logger.info({ kind: db.kind, migrations: applied, ms: Date.now() - started }, 'database ready');
  } catch (error) {
    await db.close();
    throw error;
  }

  const changes = db.pool ? await listenForChanges(cfg.databaseUrl!, db) : memoryBus();
  // Stripe's SDK (~25 MiB resident: a module per API resource) loads only where Stripe is configured.
  let stripe: Stripe | undefined;
  let payments: PaymentGateway = sandboxGateway(db);
  if (cfg.stripe) {
    const { stripeClient, stripeGateway } = await import('./payments/stripe.ts');
    stripe = stripeClient(cfg.stripe.secretKey, cfg.stripe.apiBase);
    payments = stripeGateway(stripe);
  }
  const built = createApp(
    {
      db,
      config: cfg,
      jwtSecret: jwtSecret(cfg),
      identity: firebaseIdentity(cfg),
      payments,
      images: cfg.imgbbApiKey
        ? imgbbImageStorage(cfg.imgbbApiKey)
        : db.pool
          ? databaseImageStorage(db)
          : diskImageStorage(cfg.dataDir),
      rateLimits: db.pool ? postgresRateLimitStore(db) : memoryRateLimitStore(),
      changes,
      now: () => new Date(),
      warmingUp: () => warming.on,
    },
    { stripe },
  );
  await built.tools.list(); // knows which tools exist before traffic arrives

  // The header search's index follows the catalogue: rebuilt as soon as a tool change is announced,
  // here or on another server, rather than on the first search after it (which then found nothing new).
  const search = liveSearchIndex(() => built.tools.list());
  changes.subscribe((change) => {
    if (change === 'tools') void search.refresh();
  });
  void search.refresh();

  // Holds end on time: the timer wakes when the next unpaid order's hold runs out (at the latest every
  // SWEEP_MS, for orders placed on another server), and one server at a time lets the due ones go.
  // Reads never do it (checkout.flow.ts). Holds the provider could not settle are looked at again in
  // UNSETTLED_RETRY_MS, not in a tight loop. It never sleeps longer than a hold lasts (or a second): an
  // order placed while it sleeps ends no sooner than it wakes (a hold shorter than SWEEP_MS ended up to
  // SWEEP_MS late when placed just after the timer found no hold to wait for).
  let sweep: NodeJS.Timeout | undefined;
  let closing = false;
  const holdTimer = async () => {
    const looked = Date.now();
    await db
      .once('hold-expiry', () => built.checkout.expireHolds())
      .catch((error: Error) => logger.warn({ err: error.message }, 'hold expiry failed; retrying next round'));
    let delay = SWEEP_MS;
    try {
      const next = await built.checkout.nextHoldEnd();
      const wait = next ? next.getTime() - Date.now() : Infinity;
      // A hold that ran out while this round looked was not due when it looked: go again now, not after
      // UNSETTLED_RETRY_MS (waking every hold's length, the timer often met one ending that moment).
      const unsettled = next !== null && next.getTime() <= looked;
      delay = unsettled
        ? UNSETTLED_RETRY_MS
        : Math.min(SWEEP_MS, Math.max(cfg.orderHoldMs, 1000), Math.max(wait, 0) + 20);
    } catch {
      // The database is away: look again after the usual pause.
    }
    if (closing) return;
    sweep = setTimeout(() => void holdTimer(), delay);
    sweep.unref();
  };
  sweep = setTimeout(() => void holdTimer(), 1000);
  sweep.unref();
  // Events' effects (emails, webhooks): every server runs both workers; each delivery is leased by one of them.
  built.outbox.start();
  built.webhooks.start();
  // The embedded store has no autovacuum (single-user mode): its tables are vacuumed here.
  const vacuum = db.kind === 'pglite' ? pgliteVacuum(db) : undefined;

  return {
    ...built,
    db,
    changes,
    search,
    warmedUp() {
      warming.on = false;
    },
    async close() {
      closing = true;
      clearTimeout(sweep);
      await built.outbox.stop();
      await built.webhooks.stop();
      await vacuum?.stop();
      await changes.close();
      search.close();
      await db.close();
    },
  };
}

async function listenForChanges(url: string, db: Db): Promise<ChangeBus> {
  const pg = loadPg();
  return postgresBus({
    connect: () =>
      new pg.Client({ connectionString: url, connectionTimeoutMillis: PG_TIMEOUTS.connectMs, keepAlive: true }),
    notify: notifyOn(db),
    log: logger,
  });
}
