// Every `npm run` script works: a script run by node answers --help (and starts nothing), a script run by a
// tool finds that tool installed. A script pointing at a file that is gone fails here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_PROCESS_ENV } from '../../scripts/lib/server-process';

const root = path.resolve(import.meta.dirname, '../..');
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** A command's leading `NAME=value` settings. */
const ENV_PREFIX = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/;
/** The commands of a script (`a && b` is two), each split into words, without their environment settings. */
const commandsOf = (script: string) =>
  script.split('&&').map((command) => command.trim().replace(ENV_PREFIX, '').split(/\s+/));

describe('npm run scripts', () => {
  const byNode = Object.entries(scripts)
    .map(([name, script]) => [name, script.replace(ENV_PREFIX, '')] as const)
    .filter(([, script]) => script.startsWith('node '));
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

  it('serve starts the server process as `npm start` and the bench do (scripts/lib/server-process.ts)', () => {
    const settings = Object.entries(SERVER_PROCESS_ENV).map(([name, value]) => `${name}=${value}`);
    expect(scripts.serve).toBe(`${settings.join(' ')} node src/server/main.ts`);
  });

  it.each(byTool)('%s: %s is installed', (name, program) => {
    expect(existsSync(path.join(root, 'node_modules/.bin', program)), `npm run ${name} needs ${program}`).toBe(true);
  });
});
