// Traces over OTLP/HTTP, only when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is
// set: then main.ts starts them before the store opens, and `tracer` is set. Unset, nothing of
// OpenTelemetry is loaded, and the hot paths pay one `if (tracer)`. otel.ts is the implementation.
import type { IncomingMessage } from 'node:http';

export type SpanAttributes = Record<string, string | number | boolean>;

/** A request's span. Answers from memory end it at once; the rest run inside it (`run`) and end it when done. */
export interface RequestSpan {
  traceId: string;
  /** Names the span by the route template that answered (`/api/booking/{id}`); else by metrics' route label. */
  route(template: string): void;
  /** Runs fn with this span active, so the work it causes (database statements) are its children. */
  run<T>(fn: () => T): T;
  end(status: number): void;
}

export interface Tracer {
  /** A server span for a request, continuing the caller's `traceparent` when it sent one. */
  startRequest(req: IncomingMessage): RequestSpan;
  /** Runs fn in a child span of whatever runs now (a root span when nothing does: background work). */
  span<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
  /** As span, but only inside a span (database statements: a background poll makes no trace of its own). */
  child<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
  /** The trace id of the running span, logged beside the request id. */
  traceId(): string | undefined;
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}

/** Set once tracing started (main.ts); undefined when it is off. */
export let tracer: Tracer | undefined;

/** Starts tracing when the environment asks for it. Must run before the database driver is loaded. */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracer | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const { openTelemetry } = await import('./otel.ts');
  tracer = openTelemetry(env);
  return tracer;
}

/** Runs fn in a span when tracing is on; else just runs it. */
export const traced = <T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T> =>
  tracer ? tracer.span(name, attributes, fn) : fn();

/** A route template as OpenAPI writes it: Hono's `/api/booking/:id` is `/api/booking/{id}`. */
export const routeTemplate = (honoPath: string): string => honoPath.replace(/:(\w+)/g, '{$1}');
