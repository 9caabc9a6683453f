// The server's start strips no TypeScript once its compile cache is warm (scripts/lib/server-process.ts): Node's
// type stripper is a WebAssembly module that stays resident in any process that loads it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_PROCESS_ENV, warmCompileCache } from '../../scripts/lib/server-process';

const dir = mkdtempSync(path.join(tmpdir(), 'compile-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Says, as the process exits, whether Node loaded its type stripper (amaro).
const probe = path.join(dir, 'probe.mjs');
writeFileSync(
  probe,
  "process.on('exit', () => console.log(JSON.stringify({ stripper: process.moduleLoadList.some((m) => m.includes('amaro')) })));",
);
const serverLoads = (env: NodeJS.ProcessEnv) => {
  const run = spawnSync(process.execPath, ['--import', probe, 'src/server/main.ts', '--help'], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as { stripper: boolean };
};

describe('the compile cache', () => {
  it('is set for the server process, under the project', () => {
    expect(SERVER_PROCESS_ENV.NODE_COMPILE_CACHE).toMatch(/^node_modules\//);
  });

  it('once warmed, the server loads every module it imports at start without stripping TypeScript', () => {
    const env = { ...process.env, NODE_COMPILE_CACHE: path.join(dir, 'cache') };
    expect(serverLoads({ ...env, NODE_COMPILE_CACHE: path.join(dir, 'cold') })).toEqual({ stripper: true });
    warmCompileCache(env);
    expect(serverLoads(env)).toEqual({ stripper: false });
  });
});
