// `npm test`: lint, astro check, unit, API (PGlite, and PostgreSQL when TEST_DATABASE_URL is set),
// page-weight budgets and the browser tests. Runs every step, then prints one summary.
import { spawnSync } from 'node:child_process';

interface Step {
  name: string;
  command: string[];
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
    failed: Number(text.match(/^\s*(\d+) failed/m)?.[1] ?? 0) + Number(text.match(/^\s*(\d+) flaky/m)?.[1] ?? 0) * 0,
  };
};

/** Why the cluster step cannot run here (no PostgreSQL on 127.0.0.1:5432, or no nginx), or null. */
function clusterSkipReason(): string | null {
  const pg = spawnSync(process.execPath, ['-e', "require('net').connect(5432,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"]);
  if (pg.status !== 0) return 'no PostgreSQL answers on 127.0.0.1:5432';
  if (spawnSync('nginx', ['-v']).error) return 'nginx is not installed';
  return null;
}

const only = process.argv.slice(2);
const steps: Step[] = [
  { name: 'lint', command: [bin('eslint'), '.', '--max-warnings', '0'] },
  { name: 'check', command: [bin('astro'), 'check', '--minimumSeverity', 'warning'] },
  { name: 'unit', command: [bin('vitest'), 'run', '--project', 'unit'], counts: vitestCounts },
  { name: 'api', command: [bin('vitest'), 'run', '--project', 'api*'], counts: vitestCounts },
  { name: 'e2e', command: [bin('playwright'), 'test'], counts: playwrightCounts },
  // Uses the build the browser tests just made (dist-e2e).
  { name: 'budgets', command: ['node', 'scripts/bench/index.ts', 'pages', '--check'] },
  // Three servers on PostgreSQL behind nginx (tests/cluster): only where both are present.
  ...(clusterSkipReason() ? [] : [{ name: 'cluster', command: [bin('vitest'), 'run', '--project', 'cluster'], counts: vitestCounts }]),
].filter((s) => !only.length || only.includes(s.name));
if (clusterSkipReason() && (!only.length || only.includes('cluster'))) console.log(`Skipping the cluster test: ${clusterSkipReason()}.`);

const results: { name: string; ok: boolean; seconds: number; passed: number; failed: number }[] = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name}: ${step.command.join(' ')}`);
  const started = Date.now();
  const run = spawnSync(step.command[0], step.command.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: process.env, maxBuffer: 256 * 1024 * 1024 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  process.stdout.write(output);
  const counts = step.counts?.(output) ?? { passed: run.status === 0 ? 1 : 0, failed: run.status === 0 ? 0 : 1 };
  const ok = run.status === 0 && counts.failed === 0;
  results.push({ name: step.name, ok, seconds: (Date.now() - started) / 1000, ...counts, failed: ok ? counts.failed : Math.max(1, counts.failed) });
}

console.log('\n━━ Summary');
for (const r of results) {
  const detail = ['unit', 'api', 'e2e', 'cluster'].includes(r.name) ? `${r.passed} passed, ${r.failed} failed` : r.ok ? 'ok' : 'FAILED';
  console.log(`  ${r.ok ? '✓' : '✗'} ${r.name.padEnd(8)} ${detail.padEnd(24)} ${r.seconds.toFixed(1)} s`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
