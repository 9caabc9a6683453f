// `npm test`: lint, astro check, content:check, unit, API (PGlite, and PostgreSQL when TEST_DATABASE_URL is set),
// the browser tests, page-weight budgets and the cluster test. Runs every step, then prints one summary.
// A step that outlives its time limit is stopped and fails, and the rest still run (scripts/lib/step.ts).
import { spawnSync } from 'node:child_process';
import { killRunningSteps, runStep } from './lib/step.ts';
import { exitWithUsageIfAsked } from './lib/usage.ts';

exitWithUsageIfAsked(`
Usage: npm test [-- STEP ...]
Runs every test step (lint, format, check, content, unit, api, e2e, publish, budgets, cluster) and prints
one summary; name steps to run only those. TEST_DATABASE_URL runs the API suite on PostgreSQL too.
`);

interface Step {
  name: string;
  command: string[];
  /** The step is stopped and fails after this many minutes (CI allows 90 for everything). */
  minutes: number;
  /** Pulls "N passed" / "N failed" out of a runner's output. */
  counts?: (output: string) => { passed: number; failed: number };
}

const bin = (name: string) => `node_modules/.bin/${name}`;
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

const vitestCounts = (out: string) => {
  const line = strip(out).match(/Tests\s+(.*)\(\d+\)/)?.[1] ?? '';
  return { passed: Number(line.match(/(\d+) passed/)?.[1] ?? 0), failed: Number(line.match(/(\d+) failed/)?.[1] ?? 0) };
};
const playwrightCounts = (out: string) => {
  const text = strip(out);
  return {
    passed: Number(text.match(/^\s*(\d+) passed/m)?.[1] ?? 0),
    failed: Number(text.match(/^\s*(\d+) failed/m)?.[1] ?? 0),
  };
};

/** Why the cluster step cannot run here (no PostgreSQL on 127.0.0.1:5432, or no nginx), or null. */
function clusterSkipReason(): string | null {
  const pg = spawnSync(process.execPath, [
    '-e',
    "require('net').connect(5432,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))",
  ]);
  if (pg.status !== 0) return 'no PostgreSQL answers on 127.0.0.1:5432';
  if (spawnSync('nginx', ['-v']).error) return 'nginx is not installed';
  return null;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killRunningSteps();
    process.exit(130);
  });
}

const only = process.argv.slice(2);
const clusterSkip = clusterSkipReason();
const steps: Step[] = [
  { name: 'lint', command: [bin('eslint'), '.', '--max-warnings', '0'], minutes: 10 },
  // An unformatted file fails: `npm run format` writes them.
  { name: 'format', command: [bin('prettier'), '--check', '--log-level', 'warn', '.'], minutes: 5 },
  { name: 'check', command: [bin('astro'), 'check', '--minimumSeverity', 'warning'], minutes: 10 },
  { name: 'content', command: ['node', 'scripts/content-check.ts'], minutes: 5 },
  { name: 'unit', command: [bin('vitest'), 'run', '--project', 'unit'], minutes: 10, counts: vitestCounts },
  { name: 'api', command: [bin('vitest'), 'run', '--project', 'api*'], minutes: 30, counts: vitestCounts },
  // ~10 minutes here, but 24 on a slow day of the shared host: the limit leaves room for such a day.
  { name: 'e2e', command: [bin('playwright'), 'test'], minutes: 45, counts: playwrightCounts },
  // A publish on a running store, under load (two real builds).
  { name: 'publish', command: [bin('vitest'), 'run', '--project', 'publish'], minutes: 15, counts: vitestCounts },
  // Uses the build the browser tests just made (dist-e2e).
  { name: 'budgets', command: ['node', 'scripts/bench/index.ts', 'pages', '--check'], minutes: 10 },
  // Three servers on PostgreSQL behind nginx (tests/cluster): only where both are present. Verbose,
  // so each test shows as it ends.
  ...(clusterSkip
    ? []
    : [
        {
          name: 'cluster',
          command: [bin('vitest'), 'run', '--project', 'cluster', '--reporter', 'verbose'],
          minutes: 20,
          counts: vitestCounts,
        },
      ]),
].filter((s) => !only.length || only.includes(s.name));
if (clusterSkip && (!only.length || only.includes('cluster')))
  console.log(`Skipping the cluster test: ${clusterSkip}.`);

const results: { name: string; ok: boolean; seconds: number; passed: number; failed: number; note: string }[] = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name}: ${step.command.join(' ')}`);
  const started = Date.now();
  const { status, output, timedOut, leftBehind } = await runStep(step.command, { limitMs: step.minutes * 60_000 });
  if (timedOut) console.log(`\n✗ ${step.name} did not finish within ${step.minutes} min: stopped.`);
  if (leftBehind.length)
    console.log(`(${step.name} left processes running; stopped them:\n  ${leftBehind.join('\n  ')})`);
  const counts = step.counts?.(output) ?? { passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1 };
  const ok = status === 0 && !timedOut && counts.failed === 0;
  const note = timedOut ? `timed out after ${step.minutes} min` : '';
  results.push({
    name: step.name,
    ok,
    seconds: (Date.now() - started) / 1000,
    ...counts,
    failed: ok ? counts.failed : Math.max(1, counts.failed),
    note,
  });
}

console.log('\n━━ Summary');
for (const r of results) {
  const detail = ['unit', 'api', 'e2e', 'cluster'].includes(r.name)
    ? `${r.passed} passed, ${r.failed} failed`
    : r.ok
      ? 'ok'
      : 'FAILED';
  console.log(
    `  ${r.ok ? '✓' : '✗'} ${r.name.padEnd(8)} ${detail.padEnd(24)} ${r.seconds.toFixed(1)} s ${r.note}`.trimEnd(),
  );
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
