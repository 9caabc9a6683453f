// Request counts and latency kept in plain numbers (src/server/observability/request-metrics.ts), written in the
// Prometheus text format at scrape.
import { describe, expect, it } from 'vitest';
import { requestMetrics } from '../../src/server/observability/request-metrics';

const lines = (text: string) => text.trim().split('\n');

describe('request metrics', () => {
  it('count each status and fill cumulative latency buckets with +Inf, sum and count', () => {
    const m = requestMetrics({ name: 'reqs', help: 'Requests' }, { name: 'lat', help: 'Latency' });
    m.observe('GET', '/api/tools', 200, 0.0004);
    m.observe('GET', '/api/tools', 200, 0.001); // on a bound: counted in that bucket (le is "less or equal")
    m.observe('GET', '/api/tools', 304, 0.03);
    m.observe('GET', '/api/tools', 200, 12);
    const text = lines(m.text());
    expect(text.slice(0, 4)).toEqual([
      '# HELP reqs Requests',
      '# TYPE reqs counter',
      'reqs{method="GET",route="/api/tools",status="200"} 3',
      'reqs{method="GET",route="/api/tools",status="304"} 1',
    ]);
    const bucket = (le: string) => text.find((l) => l.startsWith(`lat_bucket{le="${le}",`))?.split(' ')[1];
    expect(bucket('0.001')).toBe('2');
    expect(bucket('0.025')).toBe('2');
    expect(bucket('0.05')).toBe('3');
    expect(bucket('10')).toBe('3');
    expect(bucket('+Inf')).toBe('4');
    expect(text).toContain('lat_count{method="GET",route="/api/tools"} 4');
    expect(Number(text.find((l) => l.startsWith('lat_sum'))!.split(' ')[1])).toBeCloseTo(12.0314);
    expect(text).toContain('# TYPE lat histogram');
  });

  it('keep one series per method and route, and escape label values', () => {
    const m = requestMetrics({ name: 'reqs', help: 'R' }, { name: 'lat', help: 'L' });
    m.observe('GET', '/a', 200, 0.1);
    m.observe('POST', '/a', 201, 0.1);
    m.observe('GET', 'odd "route"\\', 404, 0.1);
    const text = m.text();
    expect(lines(text).filter((l) => l.startsWith('lat_count'))).toHaveLength(3);
    expect(text).toContain('reqs{method="GET",route="odd \\"route\\"\\\\",status="404"} 1');
  });

  it('write only the headers before any request', () => {
    const m = requestMetrics({ name: 'reqs', help: 'R' }, { name: 'lat', help: 'L' });
    expect(lines(m.text())).toEqual(['# HELP reqs R', '# TYPE reqs counter', '# HELP lat L', '# TYPE lat histogram']);
  });
});
