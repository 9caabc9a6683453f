import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groupAlive, runStep } from '../../scripts/lib/step.ts';

const quiet = () => {};

/** True once pid is gone or a zombie (a container's init may be slow to reap orphans). */
async function stopped(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    try {
      if (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) return true;
    } catch {
      return true; // gone
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('npm test steps (scripts/lib/step.ts)', () => {
  it('returns the exit status and the output', async () => {
    const chunks: string[] = [];
    const outcome = await runStep(['sh', '-c', 'echo out; echo err >&2; exit 3'], {
      limitMs: 10_000,
      echo: (c) => chunks.push(String(c)),
    });
    expect(outcome.status).toBe(3);
    expect(outcome.output).toContain('out\n');
    expect(outcome.output).toContain('err\n');
    expect(chunks.join('')).toContain('out');
    expect(outcome.timedOut).toBe(false);
  });

  it('a process the step leaves behind holding its output does not hold up the run, and is stopped', async () => {
    // What a stray server or nginx does: it inherits the output pipe and outlives the test runner.
    const started = Date.now();
    const outcome = await runStep(['sh', '-c', 'sleep 120 & echo $!; exit 0'], { limitMs: 60_000, echo: quiet });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.status).toBe(0);
    // Named by its pid; its command line may still be the forked shell's if it is listed before it runs `sleep`.
    const pid = Number(outcome.output.trim());
    expect(outcome.leftBehind).toEqual([expect.stringMatching(new RegExp(`^${pid} (sleep 120|sh -c .*)$`))]);
    expect(await stopped(pid)).toBe(true);
  });

  it('a step past its limit is stopped with everything it started, and says it timed out', async () => {
    const started = Date.now();
    const outcome = await runStep(['sh', '-c', 'sleep 120 & sleep 120'], { limitMs: 500, echo: quiet });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(outcome.timedOut).toBe(true);
    expect(outcome.status).not.toBe(0);
  });

  it('a command that cannot start is a failure, not a crash', async () => {
    const outcome = await runStep(['./no-such-command'], { limitMs: 5000, echo: quiet });
    expect(outcome.status).toBeNull();
    expect(outcome.output).toMatch(/ENOENT/);
    expect(groupAlive(2 ** 22 + 12345)).toBe(false);
  });
});
