// Traces over OTLP/HTTP, only when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is
// set: then main.ts starts them before the runtime opens, and `tracer` is set. Unset, nothing of
// OpenTelemetry is loaded, and the hot paths pay one `if (tracer)`. otel.ts is the implementation.
import type { SpanAttributes, Tracer } from './otel.ts';

/** Set once tracing started (main.ts); undefined when it is off. */
export let tracer: Tracer | undefined;

/**
 * Starts tracing when the environment asks for it. Must run before the database driver is loaded; `postgres`
 * says the store uses PostgreSQL (the pg instrumentation is loaded only then).
 */
export async function startTracing(
  env: NodeJS.ProcessEnv = process.env,
  { postgres = Boolean(env.DATABASE_URL) } = {},
): Promise<Tracer | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const { openTelemetry } = await import('./otel.ts');
  tracer = await openTelemetry(env, { postgres });
  return tracer;
}

/** Runs fn in a span when tracing is on; else just runs it. */
export const traced = <T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T> =>
  tracer ? tracer.span(name, attributes, fn) : fn();

/** A route template as OpenAPI writes it: Hono's `/api/booking/:id` is `/api/booking/{id}`. */
export const routeTemplate = (honoPath: string): string => honoPath.replace(/:(\w+)/g, '{$1}');
