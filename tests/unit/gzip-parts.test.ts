// A gzip body joined from separately compressed parts (src/server/http/gzip-parts.ts): any gzip reader
// gets exactly the parts' bytes in order, and the CRC-32 combined from the parts' is the whole's.
import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, gzipOfParts, gzipPart } from '../../src/server/http/gzip-parts';

describe('gzip from parts', () => {
  it('combines CRC-32s as if computed over the bytes joined', () => {
    for (const [a, b] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [5, 70_000],
      [3000, 17],
      [65_536, 65_536],
    ]) {
      const x = randomBytes(a);
      const y = randomBytes(b);
      expect(crc32Combine(crc32(x), crc32(y), y.length)).toBe(crc32(Buffer.concat([x, y])));
    }
  });

  it('joins parts (empty, tiny, larger than a deflate window, UTF-8, random) into one valid gzip member', () => {
    const parts = [
      Buffer.from('['),
      Buffer.alloc(0),
      Buffer.from('{"name":"Claw hammer — 16 oz 🔨"}'),
      Buffer.from(','),
      Buffer.from('x'.repeat(100_000)),
      randomBytes(40_000),
      Buffer.from(']'),
    ];
    const body = gzipOfParts(parts.map(gzipPart));
    expect(gunzipSync(body).equals(Buffer.concat(parts))).toBe(true);
    expect(gunzipSync(gzipOfParts([])).length).toBe(0);
  });

  it('a part is reusable: the same parts in another order or another body decode to those bytes', () => {
    const a = gzipPart(Buffer.from('alpha '));
    const b = gzipPart(Buffer.from('beta '));
    expect(gunzipSync(gzipOfParts([b, a, b])).toString()).toBe('beta alpha beta ');
    expect(gunzipSync(gzipOfParts([a])).toString()).toBe('alpha ');
  });
});
