// `npm test`: lint, astro check, content:check, unit, API (PGlite, and PostgreSQL when TEST_DATABASE_URL is set),
// the browser tests, page-weight budgets and the cluster test. Runs every step, then prints one summary.
// A step that outlives its time limit is stopped and fails, and the rest still run (scripts/lib/step.ts).
// The browser tests mostly wait on pages (a quarter of the two cores here), so the steps that build nothing
// run beside them in a second lane, each line of theirs named by its step: CI took 33-38 minutes in one lane.
import { spawnSync } from 'node:child_process';
import { playwrightCounts, playwrightFailures, vitestCounts, vitestFailures } from './lib/runner-output.ts';
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
  /** The failed tests' names, repeated under the summary: CI's record keeps only the output's end. */
  failures?: (output: string) => string[];
  /**
   * The lane it runs in, after the steps without one (which run first, alone: astro check writes the
   * .astro directory that a build writes too, and the unit suite's timings are tight). The lanes run side
   * by side, each its steps in order: 'browser' the site's builds and what uses them, 'beside' what builds
   * nothing and uses no port of theirs. A third lane (the browser tests in two halves, each with a store of
   * its own) made every step slower than it saved and failed timed tests: the two cores were the limit.
   */
  lane?: 'browser' | 'beside';
}

const bin = (name: string) => `node_modules/.bin/${name}`;
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
const allSteps: Step[] = [
  { name: 'lint', command: [bin('eslint'), '.', '--max-warnings', '0'], minutes: 10, lane: 'beside' },
  // An unformatted file fails: `npm run format` writes them.
  { name: 'format', command: [bin('prettier'), '--check', '--log-level', 'warn', '.'], minutes: 5, lane: 'beside' },
  { name: 'check', command: [bin('astro'), 'check', '--minimumSeverity', 'warning'], minutes: 10 },
  { name: 'content', command: ['node', 'scripts/content-check.ts'], minutes: 5 },
  // Before the lanes: its tests of started processes have 5 s limits, which a site's build beside them outran.
  {
    name: 'unit',
    command: [bin('vitest'), 'run', '--project', 'unit'],
    minutes: 10,
    counts: vitestCounts,
    failures: vitestFailures,
  },
  {
    name: 'api',
    command: [bin('vitest'), 'run', '--project', 'api*'],
    minutes: 30,
    counts: vitestCounts,
    failures: vitestFailures,
    lane: 'beside',
  },
  // ~25 minutes here beside the API suite (21 alone), but longer on a slow day of the shared host.
  {
    name: 'e2e',
    command: [bin('playwright'), 'test'],
    minutes: 45,
    counts: playwrightCounts,
    failures: playwrightFailures,
    lane: 'browser',
  },
  // A publish on a running store, under load (two real builds).
  {
    name: 'publish',
    command: [bin('vitest'), 'run', '--project', 'publish'],
    minutes: 15,
    counts: vitestCounts,
    failures: vitestFailures,
    lane: 'browser',
  },
  // Uses the build the browser tests just made (dist-e2e).
  { name: 'budgets', command: ['node', 'scripts/bench/index.ts', 'pages', '--check'], minutes: 10, lane: 'browser' },
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
          failures: vitestFailures,
          lane: 'browser' as const,
        },
      ]),
];
const steps = allSteps.filter((s) => !only.length || only.includes(s.name));
if (clusterSkip && (!only.length || only.includes('cluster')))
  console.log(`Skipping the cluster test: ${clusterSkip}.`);

type Result = {
  name: string;
  ok: boolean;
  seconds: number;
  passed: number;
  failed: number;
  note: string;
  failures: string[];
};
const results = new Map<string, Result>();

/** Prefixes each whole line with the step's name; the rest waits for its line's end. */
function namedLines(name: string) {
  const pending = { stdout: '', stderr: '' };
  const echo = (chunk: Buffer, stream: 'stdout' | 'stderr') => {
    const text = pending[stream] + chunk.toString('utf8');
    const end = text.lastIndexOf('\n') + 1;
    pending[stream] = text.slice(end);
    if (!end) return;
    const lines = `${text.slice(0, end - 1).replace(/^/gm, `[${name}] `)}\n`;
    (stream === 'stdout' ? process.stdout : process.stderr).write(lines);
  };
  const flush = () => {
    for (const stream of ['stdout', 'stderr'] as const) if (pending[stream]) echo(Buffer.from('\n'), stream);
  };
  return { echo, flush };
}

async function run(step: Step, named: boolean) {
  console.log(`\n━━ ${step.name}: ${step.command.join(' ')}`);
  const started = Date.now();
  const lines = named ? namedLines(step.name) : undefined;
  const { status, output, timedOut, leftBehind } = await runStep(step.command, {
    limitMs: step.minutes * 60_000,
    ...(lines ? { echo: lines.echo } : {}),
  });
  lines?.flush();
  if (timedOut) console.log(`\n✗ ${step.name} did not finish within ${step.minutes} min: stopped.`);
  if (leftBehind.length)
    console.log(`(${step.name} left processes running; stopped them:\n  ${leftBehind.join('\n  ')})`);
  const counts = step.counts?.(output) ?? { passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1 };
  const ok = status === 0 && !timedOut && counts.failed === 0;
  const note = timedOut ? `timed out after ${step.minutes} min` : '';
  results.set(step.name, {
    name: step.name,
    ok,
    seconds: (Date.now() - started) / 1000,
    ...counts,
    failed: ok ? counts.failed : Math.max(1, counts.failed),
    note,
    failures: step.failures?.(output) ?? [],
  });
  if (named)
    console.log(`━━ ${step.name} ${ok ? 'passed' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const started = Date.now();
for (const step of steps.filter((s) => !s.lane)) await run(step, false);
const lanes = (['browser', 'beside'] as const)
  .map((lane) => steps.filter((s) => s.lane === lane))
  .filter((l) => l.length);
await Promise.all(
  lanes.map(async (lane) => {
    for (const step of lane) await run(step, lanes.length > 1);
  }),
);

console.log('\n━━ Summary');
for (const r of steps.map((s) => results.get(s.name)!)) {
  const detail = ['unit', 'api', 'e2e', 'cluster'].includes(r.name)
    ? `${r.passed} passed, ${r.failed} failed`
    : r.ok
      ? 'ok'
      : 'FAILED';
  console.log(
    `  ${r.ok ? '✓' : '✗'} ${r.name.padEnd(8)} ${detail.padEnd(24)} ${r.seconds.toFixed(1)} s ${r.note}`.trimEnd(),
  );
  for (const name of r.failures.slice(0, 20)) console.log(`      ✗ ${name}`);
  if (r.failures.length > 20) console.log(`      … and ${r.failures.length - 20} more`);
}
const all = [...results.values()];
const passed = all.reduce((n, r) => n + r.passed, 0);
const failed = all.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
process.exit(all.every((r) => r.ok) ? 0 : 1);
