// With no OTLP endpoint, nothing of OpenTelemetry is loaded (issue 29): the OpenTelemetry packages are
// imported by src/server/observability/otel.ts alone, which only tracing.ts loads, dynamically, once an endpoint is set.
import { describe, expect, it } from 'vitest';
import { startTracing, tracer } from '../../src/server/observability/tracing';
import { graph, parse, sourceFiles } from './source-graph';

describe('tracing off', () => {
  const edges = graph();

  it('imports OpenTelemetry only from otel.ts', () => {
    const users = sourceFiles()
      .flatMap((f) => parse(f).imports)
      .filter((e) => e.specifier.startsWith('@opentelemetry/') && e.kind !== 'type');
    expect(users.length).toBeGreaterThan(0);
    expect(new Set(users.map((e) => e.from))).toEqual(new Set(['src/server/observability/otel.ts']));
  });

  it('loads otel.ts only dynamically, from tracing.ts', () => {
    const toOtel = edges.filter((e) => e.to === 'src/server/observability/otel.ts' && e.kind !== 'type');
    expect(toOtel.map((e) => [e.from, e.kind])).toEqual([['src/server/observability/tracing.ts', 'dynamic']]);
  });

  it('starts nothing without an endpoint', async () => {
    expect(await startTracing({})).toBeUndefined();
    expect(tracer).toBeUndefined();
  });
});
