// Builds the production dependencies from the configuration, once per process.
import { config, jwtSecret } from './config';
import { firebaseIdentity } from './auth/identity';
import { getDb } from './db';
import { diskImageStore, imgbbImageStore } from './images/image-store';
import { sandboxGateway } from './payments/sandbox';
import { stripeClient, stripeGateway } from './payments/stripe';
import { createApp, type Api } from './app';
import { runtime } from './runtime';

let api: Promise<Api> | undefined;

export function getApi(): Promise<Api> {
  api ??= build().catch((error) => {
    api = undefined;
    throw error;
  });
  return api;
}

async function build(): Promise<Api> {
  const cfg = config();
  const db = await getDb();
  const stripe = cfg.stripe && stripeClient(cfg.stripe.secretKey, cfg.stripe.apiBase);
  const built = createApp(
    {
      db,
      config: cfg,
      jwtSecret: jwtSecret(cfg),
      identity: firebaseIdentity(cfg),
      payments: stripe ? stripeGateway(stripe) : sandboxGateway(db),
      images: cfg.imgbbApiKey ? imgbbImageStore(cfg.imgbbApiKey) : diskImageStore(cfg.dataDir),
      now: () => new Date(),
    },
    { stripe },
  );
  await built.tools.list(); // loads the catalogue (and runtime.toolIds) before traffic arrives
  // Unpaid orders past their hold go back to stock even when nobody reads orders; and the catalogue
  // (runtime.toolIds) follows tools added or deleted by other servers sharing one PostgreSQL.
  const sweep = setInterval(() => {
    void built.orders.expireHolds().catch(() => {});
    void built.tools.list().catch(() => {});
  }, 30_000);
  sweep.unref();
  runtime.onClose(async () => clearInterval(sweep));
  runtime.api = (request, env) => built.app.fetch(request, env);
  runtime.onClose(async () => {
    runtime.api = undefined;
  });
  return built;
}
