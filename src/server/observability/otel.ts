// The OpenTelemetry side of tracing.ts, loaded only when an OTLP endpoint is configured: a tracer
// provider exporting in batches over OTLP/HTTP (the exporter reads OTEL_EXPORTER_OTLP_* itself), the
// service named by OTEL_SERVICE_NAME, W3C trace context from callers, the sampler of
// OTEL_TRACES_SAMPLER/OTEL_TRACES_SAMPLER_ARG, and the pg instrumentation for PostgreSQL (the embedded
// database's statements get the same shape of span from db/pglite.ts).
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Context, Span } from '@opentelemetry/api';
import type * as Api from '@opentelemetry/api';
import type * as AsyncHooks from '@opentelemetry/context-async-hooks';
import type * as Core from '@opentelemetry/core';
import type * as Exporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as Instrumentation from '@opentelemetry/instrumentation';
import type * as PgInstrumentationModule from '@opentelemetry/instrumentation-pg';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import { cachedRouteLabel } from './metrics.ts';
import { randomId, RequestIds } from './trace-ids.ts';

// The SDK's CommonJS builds, not its ES modules: @opentelemetry/resources' ES build imports the `process`
// built-in as a module (`import * as process from "process"`), and from then on every process.nextTick in
// this server cost about six times as much (CPU profiles under wrk: nextTick 1.3% of the busy time untraced,
// 8-9% with the ES build loaded, even with no request sampled; 1.2% with these). The API is one global
// registry, so one copy of it serves us and the SDK alike.
const require = createRequire(import.meta.url);
const { context, createContextKey, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } =
  require('@opentelemetry/api') as typeof Api;
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof AsyncHooks;
const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof Core;
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof Exporter;
const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof Resources;
const { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider } =
  require('@opentelemetry/sdk-trace') as typeof SdkTrace;

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
  /**
   * A server span for a request, continuing the caller's `traceparent` when it sent one; undefined for a
   * request not sampled, which then costs nothing.
   */
  startRequest(req: IncomingMessage): RequestSpan | undefined;
  /** Runs fn in a child span of whatever runs now (a root span when nothing does: background work). */
  span<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
  /**
   * As span, but only inside a span (database statements: a background poll makes no trace of its own).
   * The name and attributes are asked for only then: most requests are not sampled, and pay nothing.
   */
  child<T>(describe: () => { name: string; attributes: SpanAttributes }, fn: () => Promise<T>): Promise<T>;
  /** The span of the request whose handling runs now (inside its `run`), if it is traced. */
  activeRequest(): RequestSpan | undefined;
  /** The trace id of the running span, logged beside the request id. */
  traceId(): string | undefined;
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}

/**
 * The default when OTEL_TRACES_SAMPLER is unset: one request in twenty, and every one a sampled caller's trace
 * continues; its cost is measured by `npm run bench tracing`. `parentbased_always_on` traces every request.
 */
const DEFAULT_SAMPLER = 'parentbased_traceidratio';
const DEFAULT_RATIO = 0.05;
/** Where a traced request's own RequestSpan is kept in the context its handling runs in. */
const REQUEST = createContextKey('ironcrest request span');
const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-([\da-f]{2})$/;

/**
 * Whether a request is traced, decided before any span exists (head sampling): an unsampled request
 * costs one random number. OTEL_TRACES_SAMPLER as the specification names its values (always_on,
 * always_off, traceidratio, and their parentbased_ forms, which follow a caller's sampled flag),
 * OTEL_TRACES_SAMPLER_ARG the ratio.
 */
export function requestSampler(env: NodeJS.ProcessEnv): (traceparent: string | undefined) => boolean {
  const name = env.OTEL_TRACES_SAMPLER ?? DEFAULT_SAMPLER;
  const given = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const ratio =
    env.OTEL_TRACES_SAMPLER_ARG !== undefined && given >= 0 && given <= 1
      ? given
      : env.OTEL_TRACES_SAMPLER
        ? 1
        : DEFAULT_RATIO;
  const rootName = name.replace(/^parentbased_/, '');
  const root =
    rootName === 'always_off' ? () => false : rootName === 'traceidratio' ? () => Math.random() < ratio : () => true;
  if (!name.startsWith('parentbased_')) return () => root();
  return (traceparent) => {
    // 00-<trace id>-<parent id>-<flags>; the flags' lowest bit is "sampled". A malformed one is no caller's trace.
    const flags = traceparent && TRACEPARENT.exec(traceparent)?.[1];
    return flags ? (parseInt(flags, 16) & 1) === 1 : root();
  };
}

/** Wall-clock milliseconds, with the monotonic clock's precision: the SDK takes span times in this form. */
const now = () => performance.timeOrigin + performance.now();

interface RequestRecord {
  traceId: string;
  name: string;
  attributes: SpanAttributes;
  parent: Context;
  started: number;
}
/** An answer from memory's span, recorded whole for the SDK to make later. */
interface EndedRecord extends RequestRecord {
  ended: number;
  failed: boolean;
}
/** What a request's span needs from the tracer: an SDK span now (its work has children), or later (it has none). */
interface SpanMaker {
  start(request: RequestRecord): Span;
  defer(request: EndedRecord): void;
}

/**
 * A request's span. A class, not closures: one is made per traced request. The SDK's span is made only when
 * the request's work runs inside it (`run`: its statements are children). An answer from memory never does:
 * its span is recorded here and made by the SDK later, with others, off the request path (made one by one,
 * each took ~40 µs of a busy store's core; bench/before-after.md).
 */
class ServerSpan implements RequestSpan, RequestRecord {
  readonly started = now();
  name: string;
  attributes: SpanAttributes = {};
  private template: string | undefined;
  private ended = false;
  private id: string | undefined;
  private span: Span | undefined;
  private readonly maker: SpanMaker;
  private readonly req: IncomingMessage;
  readonly parent: Context;
  constructor(maker: SpanMaker, req: IncomingMessage, parent: Context) {
    this.maker = maker;
    this.req = req;
    this.parent = parent;
    this.name = req.method ?? 'GET';
  }
  /** A caller's trace id, or one of our own, chosen before the SDK's span exists (the access log names it). */
  get traceId() {
    return (this.id ??= trace.getSpanContext(this.parent)?.traceId ?? randomId(16));
  }
  route(template: string) {
    this.template = template;
  }
  run<T>(fn: () => T): T {
    this.span ??= this.maker.start(this);
    return context.with(trace.setSpan(this.parent, this.span).setValue(REQUEST, this), fn);
  }
  end(status: number) {
    if (this.ended) return;
    this.ended = true;
    const method = this.req.method ?? 'GET';
    const url = this.req.url ?? '/';
    const route = this.template ?? cachedRouteLabel(url);
    this.name = `${method} ${route}`;
    this.attributes = {
      'http.request.method': method,
      'url.path': url.split('?')[0],
      'http.route': route,
      'http.response.status_code': status,
    };
    const failed = status >= 500;
    if (!this.span) {
      // A record of its own, so the request's objects are not kept until the SDK makes the span.
      const { traceId, name, attributes, parent, started } = this;
      return this.maker.defer({ traceId, name, attributes, parent, started, ended: now(), failed });
    }
    this.span.updateName(this.name);
    this.span.setAttributes(this.attributes);
    if (failed) this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.span.end();
  }
}

/** Spans of answers from memory waiting to be made; past this, new ones are dropped (as the SDK's queue does). */
const DEFERRED_LIMIT = 4096;
const DEFERRED_EVERY_MS = 200;

export async function openTelemetry(env: NodeJS.ProcessEnv, { postgres }: { postgres: boolean }): Promise<Tracer> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const ids = new RequestIds();
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'ironcrest-store' }),
    // Requests are sampled before their span starts (requestSampler); what is started is recorded.
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
    idGenerator: ids,
  });
  trace.setGlobalTracerProvider(provider);
  // Patches `pg` when it is next required (db/postgres.ts loads it after this), only on PostgreSQL: an
  // embedded store has no `pg` to patch, so it does not load the instrumentation and its module hooks.
  // Only inside a request's or a job's span: the outbox's and the hold timer's polls make no traces of their own.
  if (postgres) {
    const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof Instrumentation;
    const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof PgInstrumentationModule;
    registerInstrumentations({
      tracerProvider: provider,
      instrumentations: [new PgInstrumentation({ requireParentSpan: true })],
    });
  }
  const tracer = provider.getTracer('ironcrest-store');
  const sampled = requestSampler(env);

  // The SDK's span of a request, from when the request started, under the trace id it was logged with.
  const startSdkSpan = (request: RequestRecord) => {
    ids.next = request.traceId;
    const options = { kind: SpanKind.SERVER, startTime: request.started, attributes: request.attributes };
    const span = tracer.startSpan(request.name, options, request.parent);
    ids.next = undefined; // a caller's trace: the SDK kept the caller's id and did not take ours
    return span;
  };
  let deferred: EndedRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  const makeDeferred = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = deferred;
    deferred = [];
    for (const request of batch) {
      const span = startSdkSpan(request);
      if (request.failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(request.ended);
    }
  };
  const maker: SpanMaker = {
    start: startSdkSpan,
    defer(request) {
      if (deferred.length >= DEFERRED_LIMIT) return;
      deferred.push(request);
      timer ??= setTimeout(makeDeferred, DEFERRED_EVERY_MS).unref();
    },
  };

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
    startRequest(req: IncomingMessage): RequestSpan | undefined {
      const traceparent = req.headers.traceparent;
      if (!sampled(typeof traceparent === 'string' ? traceparent : undefined)) return undefined;
      // A caller's trace (nginx, another service) is continued; most requests carry none.
      const parent = traceparent ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
      return new ServerSpan(maker, req, parent);
    },
    span,
    child<T>(describe: () => { name: string; attributes: SpanAttributes }, fn: () => Promise<T>) {
      if (!trace.getActiveSpan()) return fn();
      const { name, attributes } = describe();
      return span(name, attributes, fn);
    },
    activeRequest: () => context.active().getValue(REQUEST) as RequestSpan | undefined,
    traceId: () => trace.getActiveSpan()?.spanContext().traceId,
    flush: () => {
      makeDeferred();
      return provider.forceFlush();
    },
    shutdown: () => {
      makeDeferred();
      return provider.shutdown();
    },
  };
}
