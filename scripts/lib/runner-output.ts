// What `npm test` reads from the test runners' output: how many passed and failed, and which failed.
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

export const vitestCounts = (out: string) => {
  const line = strip(out).match(/Tests\s+(.*)\(\d+\)/)?.[1] ?? '';
  return { passed: Number(line.match(/(\d+) passed/)?.[1] ?? 0), failed: Number(line.match(/(\d+) failed/)?.[1] ?? 0) };
};
export const playwrightCounts = (out: string) => {
  const text = strip(out);
  return {
    passed: Number(text.match(/^\s*(\d+) passed/m)?.[1] ?? 0),
    failed: Number(text.match(/^\s*(\d+) failed/m)?.[1] ?? 0),
  };
};

/** Vitest's "FAIL  |api| tests/api/x.test.ts > group > test" lines, once each. */
export const vitestFailures = (out: string) => [
  ...new Set(
    strip(out)
      .split('\n')
      .map((l) => l.match(/^\s*FAIL\s+(.*\S)/)?.[1]?.replace(/\s+/g, ' '))
      .filter((l): l is string => !!l),
  ),
];
/** The "[chromium] › tests/e2e/x.spec.ts:12:3 › test" lines that Playwright lists under "N failed", "N interrupted" and "N flaky". */
export const playwrightFailures = (out: string) => {
  const names: string[] = [];
  let listing = '';
  for (const line of strip(out).split('\n')) {
    const heading = line.match(/^\s*\d+ (failed|interrupted|flaky)\s*$/)?.[1];
    if (heading) listing = heading;
    else if (listing && /^\s+\[[\w-]+\] › /.test(line))
      names.push(listing === 'failed' ? line.trim() : `${line.trim()} (${listing})`);
    else listing = '';
  }
  return names;
};
