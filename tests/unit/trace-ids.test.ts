// The tracer's ids (observability/trace-ids.ts): a request span made after its request ended takes the trace
// id the request was logged with, once; every other id is random, of the right length, never all zero.
import { describe, expect, it } from 'vitest';
import { randomId, RequestIds } from '../../src/server/observability/trace-ids';

describe('trace ids', () => {
  it('random ids are hex of 8 or 16 bytes and differ', () => {
    const traces = new Set(Array.from({ length: 1000 }, () => randomId(16)));
    expect(traces.size).toBe(1000);
    for (const id of traces) expect(id).toMatch(/^[\da-f]{32}$/);
    expect(randomId(8)).toMatch(/^[\da-f]{16}$/);
  });

  it('the next trace id is taken once, then ids are random again', () => {
    const ids = new RequestIds();
    ids.next = 'abcdef0123456789abcdef0123456789';
    expect(ids.generateTraceId()).toBe('abcdef0123456789abcdef0123456789');
    expect(ids.generateTraceId()).not.toBe('abcdef0123456789abcdef0123456789');
    expect(ids.generateSpanId()).toMatch(/^[\da-f]{16}$/);
  });
});
