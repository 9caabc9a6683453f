// The access log line (src/server/observability/logger.ts): one JSON object per request whatever the client sent.
import { describe, expect, it } from 'vitest';
import { accessLine, requestIdFrom } from '../../src/server/observability/logger';

describe('access log line', () => {
  it('is one line of valid JSON for hostile paths, addresses and request ids', () => {
    const junkIds = ['a"b', 'x\\y', 'line\nbreak', '', 'ok-id', 'é', 'x'.repeat(200)];
    for (const incoming of junkIds) {
      const id = requestIdFrom(incoming, () => '6b0d3c52-0b6e-4e38-9a57-3a1f1a6b4c1e');
      const line = accessLine(id, '::ffff:127.0.0.1"', 'GET', '/a"b\\c/%22é\u2028?q="x"', 404, 3);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
      const entry = JSON.parse(line);
      expect(entry).toMatchObject({
        level: 30,
        reqId: id,
        method: 'GET',
        path: '/a"b\\c/%22é\u2028',
        status: 404,
        ms: 3,
        msg: 'request',
      });
      expect(entry.ip).toBe('::ffff:127.0.0.1"');
    }
  });

  it('keeps a proxy request id that looks like one, and replaces any other', () => {
    expect(requestIdFrom('req-1.2:3_x', () => 'made')).toBe('req-1.2:3_x');
    for (const junk of ['a"b', 'a b', '', 'x'.repeat(129), undefined, ['a', 'b']])
      expect(requestIdFrom(junk, () => 'made')).toBe('made');
  });
});
