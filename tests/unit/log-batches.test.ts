// The server's batched log output (src/server/observability/log-batches.ts): nothing lost, few writes.
import { describe, expect, it, vi } from 'vitest';
import { batched } from '../../src/server/observability/log-batches';

describe('batched log output', () => {
  it('writes once the batch is full, in order, with nothing lost', () => {
    const batches: string[] = [];
    const out = batched((b) => batches.push(b), { maxBytes: 30 });
    for (let i = 0; i < 7; i++) out.write(`line ${i}\n`); // 7 bytes each
    expect(batches).toEqual(['line 0\nline 1\nline 2\nline 3\nline 4\n']);
    out.flush();
    expect(batches.join('')).toBe([0, 1, 2, 3, 4, 5, 6].map((i) => `line ${i}\n`).join(''));
    out.flush();
    expect(batches).toHaveLength(2);
  });

  it('writes what waits at least every flush interval', () => {
    vi.useFakeTimers();
    try {
      const batches: string[] = [];
      const out = batched((b) => batches.push(b), { flushMs: 1000 });
      out.write('ready\n');
      expect(batches).toEqual([]);
      vi.advanceTimersByTime(1000);
      expect(batches).toEqual(['ready\n']);
    } finally {
      vi.useRealTimers();
    }
  });
});
