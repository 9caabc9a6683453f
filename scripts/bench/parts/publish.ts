// Part: a publish under load (issue 28). wrk reads pages, the API and a page's hashed scripts from the
// bench store, in turn, from before `npm run publish` starts until a few seconds after the store serves
// the new build; every answer must be a 2xx, with no socket error. The store is never restarted.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CORES, http, LOAD, pin, WRK, loadToolMissing } from '../load.ts';
import type { Rendered } from '../report.ts';
import { benchEnv, ensureBenchBuild, PORTS, startStore, TMP } from '../store.ts';

export interface PublishData {
  paths: string[];
  from: string;
  to: string;
  publishSeconds: number;
  seconds: number;
  requests: number;
  rps: number;
  non2xx: number;
  socketErrors: number;
}

const PAGES = ['/', '/blogs/', '/privacy/', '/myportfolio/', '/tools', '/api/tools', '/api/health'];

const health = async (url: string) =>
  (JSON.parse((await http('GET', `${url}/api/health`)).body) as { build: string }).build;

export async function run(): Promise<PublishData> {
  const missing = loadToolMissing();
  if (missing) throw new Error(missing);
  ensureBenchBuild();
  const store = await startStore({ name: 'publish', port: PORTS.store });
  const home = (await http('GET', `${store.url}/`)).body;
  const assets = [...new Set([...home.matchAll(/"(\/_astro\/[\w.-]+\.(?:js|css))"/g)].map((m) => m[1]))].slice(0, 3);
  const paths = [...PAGES, ...assets];
  const script = path.join(TMP, 'publish-paths.lua');
  writeFileSync(
    script,
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(', ')}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format(nil, paths[(i % #paths) + 1])\nend\n`,
  );
  const from = await health(store.url);
  pin([store.pid]);
  const started = performance.now();
  const wrk = spawn(
    'taskset',
    [
      '-c',
      String(CORES.client),
      WRK,
      '-t1',
      `-c${LOAD.connections}`,
      '-d600s',
      '--timeout',
      '10s',
      '-s',
      script,
      '-H',
      'accept-encoding: br, gzip',
      store.url,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  wrk.stdout.on('data', (c: Buffer) => (out += c));
  await new Promise((r) => setTimeout(r, 2000));

  const publishStarted = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    // The editor's command, with the bench store's environment (it asks the store for the catalogue).
    const child = spawn(process.execPath, ['scripts/publish.ts'], { env: benchEnv(), stdio: 'inherit' });
    child.on('exit', resolve);
  });
  const publishSeconds = (performance.now() - publishStarted) / 1000;
  if (code !== 0) throw new Error(`npm run publish exited with ${code}`);
  const to = await health(store.url);
  await new Promise((r) => setTimeout(r, 3000));
  const ended = new Promise((r) => wrk.once('exit', r));
  wrk.kill('SIGINT');
  await ended;
  const seconds = (performance.now() - started) / 1000;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  await store.stop();
  return {
    paths,
    from,
    to,
    publishSeconds: Math.round(publishSeconds * 10) / 10,
    seconds: Math.round(seconds * 10) / 10,
    requests,
    rps: Math.round(requests / seconds),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0,
  };
}

export const failed = (d: PublishData) => d.non2xx > 0 || d.socketErrors > 0 || d.from === d.to || d.requests === 0;

export function render(d: PublishData): Rendered {
  const ok = !failed(d);
  return {
    summary: [
      {
        metric: 'publish under load: failed requests',
        goal: '0 non-2xx, 0 socket errors',
        result: `${d.non2xx} non-2xx, ${d.socketErrors} socket errors in ${d.requests} requests`,
        ok,
      },
    ],
    section: [
      '## Publishing under load (npm run publish on a serving store)',
      '',
      `wrk on core 1 (${LOAD.connections} connections, brotli) asked in turn for ${d.paths.map((p) => `\`${p}\``).join(', ')}`,
      `for ${d.seconds} s, from 2 s before \`npm run publish\` started until 3 s after the store served the new build.`,
      `The publish (a full build beside the served one, then the switch) took ${d.publishSeconds} s; the store went from`,
      `build \`${d.from}\` to \`${d.to}\` without a restart.`,
      '',
      '| requests | rps | non-2xx | socket errors |',
      '|---|---|---|---|',
      `| ${d.requests} | ${d.rps} | ${d.non2xx} | ${d.socketErrors} |`,
    ].join('\n'),
  };
}
