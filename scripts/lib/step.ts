// Runs one step of `npm test` in its own process group, with a time limit, its output streamed as it
// comes. When the step's process ends, whatever it left running (a server, nginx, an emulator) is
// stopped: such a process keeps the step's output pipe open and would hold up the whole run.
import { spawn, spawnSync } from 'node:child_process';

export interface StepOutcome {
  status: number | null;
  output: string;
  timedOut: boolean;
  /** Processes of the step's group still alive when its main process ended (then stopped): their pids and commands. */
  leftBehind: string[];
}

export interface StepOptions {
  limitMs: number;
  /** Where the output goes as it comes (the terminal by default). */
  echo?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  env?: NodeJS.ProcessEnv;
}

/** True while any process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** "pid command" of each live process in the group (zombies left out). */
function groupMembers(pgid: number): string[] {
  const ps = spawnSync('ps', ['-o', 'pid=,stat=,args=', '-g', String(pgid)], { encoding: 'utf8' });
  return (ps.stdout ?? '')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat]) => pid && !stat?.startsWith('Z'))
    .map(([pid, , ...args]) => `${pid} ${args.join(' ').slice(0, 160)}`);
}

const running = new Set<number>();
/** Stops every step still running (npm test interrupted). */
export function killRunningSteps(): void {
  for (const pgid of running) killGroup(pgid, 'SIGKILL');
}

const terminal = (chunk: Buffer, stream: 'stdout' | 'stderr') =>
  (stream === 'stdout' ? process.stdout : process.stderr).write(chunk);

export function runStep(
  command: string[],
  { limitMs, echo = terminal, env = process.env }: StepOptions,
): Promise<StepOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
    const pgid = child.pid;
    if (pgid === undefined) {
      child.once('error', (error) =>
        resolve({ status: null, output: `${error.message}\n`, timedOut: false, leftBehind: [] }),
      );
      return;
    }
    running.add(pgid);
    let output = '';
    let timedOut = false;
    let leftBehind: string[] = [];
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream].on('data', (chunk: Buffer) => {
        echo(chunk, stream);
        output += chunk.toString('utf8');
      });
    }
    const limit = setTimeout(() => {
      timedOut = true;
      killGroup(pgid, 'SIGTERM');
      setTimeout(() => killGroup(pgid, 'SIGKILL'), 10_000).unref();
    }, limitMs);
    child.once('exit', (status) => {
      clearTimeout(limit);
      if (groupAlive(pgid)) {
        leftBehind = groupMembers(pgid);
        killGroup(pgid, 'SIGKILL');
      }
      running.delete(pgid);
      // The pipes close once their last holder is gone: wait a moment for the output, no longer.
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve({ status, output, timedOut, leftBehind });
      };
      child.once('close', finish);
      setTimeout(finish, 2000).unref();
    });
  });
}
