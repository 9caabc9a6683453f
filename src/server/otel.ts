// The OpenTelemetry side of tracing.ts, loaded only when an OTLP endpoint is configured: a tracer
// provider exporting in batches over OTLP/HTTP (the exporter reads OTEL_EXPORTER_OTLP_* itself), the
// service named by OTEL_SERVICE_NAME, W3C trace context from callers, the sampler of
// OTEL_TRACES_SAMPLER/OTEL_TRACES_SAMPLER_ARG, and the pg instrumentation for PostgreSQL (the embedded
// database's statements get the same shape of span from db/client.ts).
import type { IncomingMessage } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { routeLabel } from './metrics.ts';

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

/** The sampler the standard variables ask for (default: every trace, following a caller's decision). */
function samplerOf(env: NodeJS.ProcessEnv): Sampler {
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1);
  const root = (name: string) =>
    name === 'always_off'
      ? new AlwaysOffSampler()
      : name === 'traceidratio'
        ? new TraceIdRatioBasedSampler(ratio)
        : new AlwaysOnSampler();
  const name = env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on';
  return name.startsWith('parentbased_')
    ? new ParentBasedSampler({ root: root(name.slice('parentbased_'.length)) })
    : root(name);
}

export function openTelemetry(env: NodeJS.ProcessEnv): Tracer {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'ironcrest-store' }),
    sampler: samplerOf(env),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  trace.setGlobalTracerProvider(provider);
  // Patches `pg` when it is next required (db/client.ts loads it after this).
  // Only inside a request's or a job's span: the outbox's and the hold timer's polls make no traces of their own.
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new PgInstrumentation({ requireParentSpan: true })],
  });
  const tracer = provider.getTracer('ironcrest-store');

  function span<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T> {
    return tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await fn();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  return {
    startRequest(req: IncomingMessage): RequestSpan {
      const method = req.method ?? 'GET';
      // A caller's trace (nginx, another service) is continued; most requests carry none.
      const parent = req.headers.traceparent ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
      let route: string | undefined;
      let ended = false;
      return {
        traceId: span.spanContext().traceId,
        route: (template) => (route = template),
        run: (fn) => context.with(trace.setSpan(parent, span), fn),
        end(status) {
          if (ended) return;
          ended = true;
          if (!span.isRecording()) return;
          const url = req.url ?? '/';
          route ??= routeLabel(url);
          span.updateName(`${method} ${route}`);
          span.setAttributes({
            'http.request.method': method,
            'url.path': url.split('?')[0],
            'http.route': route,
            'http.response.status_code': status,
          });
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    span,
    child: <T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>) =>
      trace.getActiveSpan() ? span(name, attributes, fn) : fn(),
    traceId: () => trace.getActiveSpan()?.spanContext().traceId,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
