import { describe, expect, it } from 'vitest';
import { playwrightCounts, playwrightFailures, vitestCounts, vitestFailures } from '../../scripts/lib/runner-output.ts';

// Output as the runners print it to a pipe (colours included: they are stripped before reading).
const vitest = [
  '\x1b[31m   \x1b[31m×\x1b[31m cancels on time\x1b[39m\x1b[32m 7100\x1b[2mms\x1b[22m\x1b[39m',
  '\x1b[41m\x1b[1m FAIL \x1b[22m\x1b[49m \x1b[30m\x1b[42m api \x1b[49m\x1b[39m tests/api/hold-timer.test.ts\x1b[2m > \x1b[22mholds\x1b[2m > \x1b[22mcancels on time',
  'AssertionError: expected 7100 to be less than 5000',
  ' FAIL   api-pg  tests/api/hold-timer.test.ts > holds > cancels on time',
  ' FAIL   api  tests/api/hold-timer.test.ts > holds > cancels on time',
  '\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m\x1b[2m | \x1b[22m\x1b[1m\x1b[32m5449 passed\x1b[39m\x1b[22m\x1b[90m (5450)\x1b[39m',
].join('\n');

const playwright = [
  '  ✘  12 [chromium] › tests/e2e/cart.spec.ts:40:3 › cart › pays (31.0s)',
  '  1) [chromium] › tests/e2e/cart.spec.ts:40:3 › cart › pays ──────────',
  '    Error: expect(locator).toBeVisible() failed',
  '',
  '\x1b[31m  1 failed\x1b[39m',
  '\x1b[31m    [chromium] › tests/e2e/cart.spec.ts:40:3 › cart › pays \x1b[39m',
  '\x1b[33m  1 flaky\x1b[39m',
  '\x1b[33m    [editor] › tests/e2e/editor-publish.spec.ts:70:1 › an editor publishes \x1b[39m',
  '\x1b[33m  1 skipped\x1b[39m',
  '\x1b[32m  162 passed\x1b[39m\x1b[2m (24.9m)\x1b[22m',
].join('\n');

describe("npm test's reading of the runners' output", () => {
  it('counts what passed and failed', () => {
    expect(vitestCounts(vitest)).toEqual({ passed: 5449, failed: 1 });
    expect(playwrightCounts(playwright)).toEqual({ passed: 162, failed: 1 });
  });

  it('names each failed test once, with its project, so the summary at the end of a CI record shows it', () => {
    expect(vitestFailures(vitest)).toEqual([
      'api tests/api/hold-timer.test.ts > holds > cancels on time',
      'api-pg tests/api/hold-timer.test.ts > holds > cancels on time',
    ]);
    expect(playwrightFailures(playwright)).toEqual([
      '[chromium] › tests/e2e/cart.spec.ts:40:3 › cart › pays',
      '[editor] › tests/e2e/editor-publish.spec.ts:70:1 › an editor publishes (flaky)',
    ]);
  });

  it('names nothing when everything passed', () => {
    expect(vitestFailures(' Test Files  3 passed (3)\n      Tests  12 passed (12)')).toEqual([]);
    expect(playwrightFailures('  1 skipped\n  164 passed (24.9m)')).toEqual([]);
  });
});
