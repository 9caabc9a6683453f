import { describe, expect, it } from 'vitest';
import { readingMinutes, readingTimeLabel } from '../../src/lib/reading-time';

describe('reading time', () => {
  it('counts words at 200 a minute, rounded, at least one minute; link and image syntax does not count', () => {
    expect(readingMinutes('')).toBe(1);
    expect(readingMinutes('word '.repeat(100))).toBe(1);
    expect(readingMinutes('word '.repeat(500))).toBe(3);
    expect(
      readingMinutes(
        `${'word '.repeat(400)} [a link](https://example.com/a/very/long/path/with/many/parts) ![x](/img.png)`,
      ),
    ).toBe(2);
    expect(readingMinutes("l'été — où? 1,200 tools; don't")).toBe(1);
    expect(readingTimeLabel(4)).toBe('4 min read');
  });
});
