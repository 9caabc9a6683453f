// Which requests are traced (src/server/observability/otel.ts, requestSampler): decided before any span exists, from
// OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the OpenTelemetry specification names them.
import { describe, expect, it } from 'vitest';
import { requestSampler } from '../../src/server/observability/otel';

const sampledParent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const unsampledParent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';
const share = (decide: (tp?: string) => boolean, traceparent?: string) => {
  let yes = 0;
  for (let i = 0; i < 20_000; i++) if (decide(traceparent)) yes++;
  return yes / 20_000;
};

describe('request sampling', () => {
  it('by default traces one request in twenty, and every one whose caller sampled its trace', () => {
    const decide = requestSampler({});
    expect(share(decide)).toBeGreaterThan(0.035);
    expect(share(decide)).toBeLessThan(0.065);
    expect(share(decide, sampledParent)).toBe(1);
    expect(share(decide, unsampledParent)).toBe(0);
    // A malformed traceparent is no caller's decision.
    expect(share(decide, '00-zz-01')).toBeLessThan(0.065);
  });

  it('follows OTEL_TRACES_SAMPLER and its ratio', () => {
    expect(share(requestSampler({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }))).toBe(1);
    expect(share(requestSampler({ OTEL_TRACES_SAMPLER: 'always_on' }), unsampledParent)).toBe(1);
    expect(share(requestSampler({ OTEL_TRACES_SAMPLER: 'always_off' }), sampledParent)).toBe(0);
    expect(share(requestSampler({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }), sampledParent)).toBe(1);
    const half = share(requestSampler({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }));
    expect(half).toBeGreaterThan(0.45);
    expect(half).toBeLessThan(0.55);
    // A named ratio sampler without its argument traces everything, as the specification's default ratio is 1.
    expect(share(requestSampler({ OTEL_TRACES_SAMPLER: 'traceidratio' }))).toBe(1);
  });
});
