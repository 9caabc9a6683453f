// With no OTLP endpoint, nothing of OpenTelemetry is loaded (issue 29): the OpenTelemetry packages are
// imported by src/server/observability/otel.ts alone, which only tracing.ts loads, dynamically, once an endpoint is set.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startTracing, tracer } from '../../src/server/observability/tracing';
import { graph, parse, sourceFiles } from './source-graph';

describe('tracing off', () => {
  const edges = graph();

  it('names OpenTelemetry only in otel.ts', () => {
    const users = sourceFiles()
      .flatMap((f) => parse(f).imports)
      .filter((e) => e.specifier.startsWith('@opentelemetry/'));
    expect(users.length).toBeGreaterThan(0);
    expect(new Set(users.map((e) => e.from))).toEqual(new Set(['src/server/observability/otel.ts']));
  });

  // @opentelemetry/resources' ES build imports the `process` built-in as a module, after which every
  // process.nextTick of the server cost ~6 times as much (bench/before-after.md): tracing loads the CommonJS builds.
  it('loads the SDK as CommonJS, none of its ES modules', () => {
    const script = `
      import { registerHooks } from 'node:module';
      const esm = [];
      registerHooks({
        load(url, context, next) {
          const loaded = next(url, context);
          if (url.includes('/@opentelemetry/') && loaded.format === 'module') esm.push(url);
          return loaded;
        },
      });
      const { startTracing } = await import('./src/server/observability/tracing.ts');
      const tracer = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, { postgres: true });
      await tracer.shutdown();
      console.log(JSON.stringify({ started: Boolean(tracer), esm }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/Error/);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({ started: true, esm: [] });
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
