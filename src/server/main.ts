// Our Node server, the one owner of the runtime in this process: it reads the configuration, opens the
// database and builds the API once (runtime.ts), and answers every request through outer-server.ts.
// Run with Node 24 (type stripping): `node src/server/main.ts` after `npm run build`.
import './load-env.ts';
import { createServer } from 'node:http';
import path from 'node:path';
import { ConfigError, jwtSecret, loadConfig, startupConfigWarnings, type Config } from './config.ts';
import { isDatabaseUnavailable } from './db/client.ts';
import { logger as log, logOut } from './observability/logger.ts';
import { registerPoolStats } from './observability/metrics.ts';
import { startMetricsServer } from './observability/metrics-server.ts';
import { startOpsSocket } from './ops/ops-socket.ts';
import { outerServer } from './host/outer-server.ts';
import { buildsDirOf } from './builds/site-builds.ts';
import { followBuilds, loadBuild } from './builds/site-reload.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { startTracing } from './observability/tracing.ts';
import { WARM_UP_BUYER, warmOrdering, warmPages } from './host/warm-up.ts';
import { signAccessToken } from './auth/jwt.ts';
import { collectWhenIdle } from './host/idle-memory.ts';

if (process.argv.includes('--help')) {
  console.log(`Usage: npm run serve
The store's server (site, API, database) on HOST:PORT, from the build in DIST_DIR (npm run build first).
Configuration: environment variables or .env (README, Configuration).`);
  process.exit(0);
}

let config: Config;
try {
  config = loadConfig(process.env, { server: true });
  for (const warning of startupConfigWarnings(config)) log.warn(warning);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Before the runtime opens: the database driver must load after the pg instrumentation hooks it.
const tracing = await startTracing(process.env, { postgres: Boolean(config.databaseUrl) }).catch((error: Error) => {
  console.error(`Tracing could not start (OTEL_EXPORTER_OTLP_ENDPOINT): ${error.message}`);
  process.exit(1);
});
if (tracing) log.info({ endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing to OTLP');

const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
const first = await loadBuild(dist).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});

/** The runtime once its database is open; until then /api answers 503 and /api/health says alive. */
let runtime: Runtime | undefined;
/** The embedded store's socket for `npm run backup` (none with PostgreSQL, which has its own tools). */
let ops: Awaited<ReturnType<typeof startOpsSocket>>;
const outer = outerServer({
  config,
  dist: first.dir,
  astro: first.astro,
  buildId: first.id,
  buildsDir: buildsDirOf(dist),
  runtime: () => runtime,
});
const server = createServer(outer.listener);

// A publish (npm run publish) points DIST_DIR at a new build: serve it from the next request on.
const builds = followBuilds(
  dist,
  first.dir,
  (next) => {
    const from = outer.buildId;
    outer.switchBuild(next, config.assetGraceMs);
    log.info({ from, to: next.id }, 'serving a new build');
    logOut.flush();
  },
  (error) => log.error({ err: error }, 'the new build could not be loaded; still serving the last one'),
);
process.on('SIGHUP', () => void builds.check());

server.keepAliveTimeout = 65_000;
server.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE')
    console.error(`Port ${config.port} on ${config.host} is already in use. Stop the other server or set PORT.`);
  else console.error(`Server error: ${error.message}`);
  process.exit(1);
});

/** Opens the runtime; while PostgreSQL is out of reach, keeps trying (the process stays up, not ready). */
async function openWhenReachable() {
  for (let delay = 500; !stopping; delay = Math.min(delay * 2, 10_000)) {
    try {
      runtime = await openRuntime(config, { warmUp: true });
      if (runtime.db.pool)
        registerPoolStats(() => ({
          total: runtime!.db.pool!.totalCount,
          idle: runtime!.db.pool!.idleCount,
          waiting: runtime!.db.pool!.waitingCount,
        }));
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log.warn({ err: (error as Error).message, retryInMs: delay }, 'database unreachable; retrying');
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

server.listen(config.port, config.host, async () => {
  const url = `http://${config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
  try {
    if (config.metrics.port) await startMetricsServer(config.metrics.port);
    await openWhenReachable();
    if (runtime?.db.snapshot) ops = await startOpsSocket({ db: runtime.db, config });
  } catch (error) {
    console.error(`The store could not start: ${(error as Error).message}`);
    await shutdown('startup-failure', 1);
    return;
  }
  if (stopping) return;
  const warming = performance.now();
  await warmPages(server);
  if (!stopping && runtime)
    await warmOrdering(server, {
      rehearse: runtime.orders.rehearse,
      connections: runtime.db.pool?.options.max,
      token: await signAccessToken(jwtSecret(config), WARM_UP_BUYER),
    });
  if (stopping) return;
  runtime?.warmedUp();
  log.info({ url, warmUpMs: Math.round(performance.now() - warming) }, 'store ready');
  logOut.flush();
  process.send?.('ready');
  collectWhenIdle({
    onCollected: ({ ms, beforeBytes, afterBytes }) =>
      log.info(
        { ms: Math.round(ms), heapMiB: [beforeBytes, afterBytes].map((b) => Math.round(b / 1048576)) },
        'idle: heap compacted',
      ),
  });
});

let stopping = false;
async function shutdown(signal: string, code = 0) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(code || 1), 10_000);
  force.unref();
  // Stop accepting, let in-flight requests finish (the proxy sends new ones elsewhere), then close the database.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await ops?.close();
  await runtime?.close();
  await tracing?.shutdown().catch(() => {});
  logOut.flush();
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
