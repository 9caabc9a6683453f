// Every `npm run` script works: a script run by node answers --help (and starts nothing), a script run by a
// tool finds that tool installed. A script pointing at a file that is gone fails here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** The commands of a script (`a && b` is two), each split into words. */
const commandsOf = (script: string) => script.split('&&').map((command) => command.trim().split(/\s+/));

describe('npm run scripts', () => {
  const byNode = Object.entries(scripts).filter(([, script]) => script.startsWith('node '));
  const byTool = Object.entries(scripts).flatMap(([name, script]) =>
    commandsOf(script)
      .filter(([program]) => program !== 'node')
      .map(([program]) => [name, program] as const),
  );

  it('has scripts of both kinds (the checks below are not empty)', () => {
    expect(byNode.length).toBeGreaterThan(8);
    expect(byTool.length).toBeGreaterThan(4);
  });

  it.each(byNode)('%s: its file exists and answers --help without starting anything', (name, script) => {
    const [, file] = script.split(/\s+/);
    expect(existsSync(path.join(root, file)), `npm run ${name}: ${file} does not exist`).toBe(true);
    const run = spawnSync(process.execPath, [file, '--help'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(run.status, `npm run ${name} -- --help: ${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/npm (run |start|test)/);
  });

  it.each(byTool)('%s: %s is installed', (name, program) => {
    expect(existsSync(path.join(root, 'node_modules/.bin', program)), `npm run ${name} needs ${program}`).toBe(true);
  });
});
