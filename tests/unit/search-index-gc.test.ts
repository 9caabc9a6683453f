// Building the search index must not leave V8 allocating every later request's objects in the old
// generation (allocation-site pretenuring after 10,000 queued writes to Pagefind's process): the young
// collections after it then kept 33-63% of what they saw and took 16-40 ms (bench/before-after.md).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('./probes/search-then-serve.ts', import.meta.url));

it('leaves the young generation collecting per-request garbage after a 10,000-tool index build', () => {
  const run = spawnSync(process.execPath, ['--trace-gc-nvp', PROBE], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  const after = run.stdout.slice(run.stdout.indexOf('BUILT'));
  expect(after).toContain('DONE');
  // One JSON object per collection (Node 26's --trace-gc-nvp); the ratio is a percentage.
  const survival = [...after.matchAll(/"gc":"s".*?"average_survival_ratio":([\d.]+)/g)].map((m) => Number(m[1]));
  // 20,000 requests allocate enough for several young collections.
  expect(survival.length).toBeGreaterThan(2);
  // A request's objects are garbage when it is answered: the last collections keep next to nothing.
  expect(Math.max(...survival.slice(-3))).toBeLessThan(10);
}, 150_000);
