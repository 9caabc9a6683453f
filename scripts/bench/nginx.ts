// nginx as the static-serving ceiling: Debian's package (installed when missing and we are root),
// one worker on 127.0.0.1 with a generated config in a temp dir, serving the same precompressed files.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertPortFree } from '../lib/ports.ts';
import { withChildren } from './load.ts';
import { HOST, onCleanup, stopChild } from './store.ts';

const NGINX = '/usr/sbin/nginx';
const BROTLI = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

export function ensureNginx(): string | undefined {
  if (!existsSync(NGINX) || !existsSync(BROTLI)) {
    if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return undefined;
    console.log('  Installing nginx (Debian package)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () =>
      spawnSync('apt-get', ['install', '-y', '-qq', 'nginx', 'libnginx-mod-http-brotli-static'], {
        env,
        stdio: 'ignore',
        timeout: 300_000,
      }).status;
    if (install() !== 0) {
      spawnSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore', timeout: 300_000 });
      install();
    }
    // The package may start the system service on port 80; the bench runs its own instance only.
    spawnSync('service', ['nginx', 'stop'], { stdio: 'ignore', timeout: 30_000 });
  }
  if (!existsSync(NGINX)) return undefined;
  return /nginx\/([\d.]+)/.exec(spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr)?.[1] ?? 'unknown';
}

/** Headers nginx writes itself for a file (or, for the request id, from its own $request_id). */
const WRITES_ITSELF = new Set(['content-type', 'content-encoding', 'etag', 'vary', 'x-request-id']);

const capitalised = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

function quoted(value: string): string {
  if (/["$\\]/.test(value)) throw new Error(`a header value nginx would read differently: ${value}`);
  return `"${value}"`;
}

/**
 * A location per page path adding the headers ours sent for it (security headers, the page's CSP,
 * caching) and a request id, so nginx puts the same bytes on the wire as ours does.
 */
function pageLocations(pages: Record<string, Record<string, string>>): string {
  return Object.entries(pages)
    .map(([pagePath, headers]) => {
      const added = Object.entries(headers)
        .filter(([name]) => !WRITES_ITSELF.has(name))
        .map(([name, value]) => `      add_header ${capitalised(name)} ${quoted(value)};`);
      return [
        `    location = ${pagePath} {`,
        '      try_files $uri $uri/index.html $uri.html =404;',
        '      add_header X-Request-Id $request_id;',
        ...added,
        '    }',
      ].join('\n');
    })
    .join('\n');
}

/** nginx serving root; `pages` maps a page's path to the headers it must send besides the file's own. */
export async function startNginx(
  root: string,
  port: number,
  pages: Record<string, Record<string, string>> = {},
): Promise<{ url: string; pids(): number[]; stop(): Promise<void>; bytesDir: string }> {
  await assertPortFree(HOST, port, 'the bench nginx');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-nginx-'));
  const bytesDir = path.join(dir, 'bytes');
  mkdirSync(bytesDir);
  const brotli = existsSync(BROTLI);
  const conf = `
${brotli ? `load_module ${BROTLI};` : ''}
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  server {
    listen ${HOST}:${port};
    root ${path.resolve(root)};
    gzip_static on;
    gzip_vary on;
    ${brotli ? 'brotli_static on;' : ''}
    location / { try_files $uri $uri/index.html $uri.html =404; }
${pageLocations(pages)}
    # The load generator's ceiling (calibrate.ts): the cheapest answer nginx can give, unlogged.
    location = /__calibrate { access_log off; return 200 "ok"; }
    # The ceiling for a large answer (calibrate.ts sizedCeiling): a file of the same bytes, unlogged.
    location /__calibrate/bytes/ { access_log off; alias ${bytesDir}/; }
  }
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const stop = async () => {
    await stopChild(child, 'SIGQUIT');
    rmSync(dir, { recursive: true, force: true });
  };
  onCleanup(stop);
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr.trim()}`);
    // /__calibrate always answers; / needs an index.html, which a build whose home is rendered live has not.
    const ok = await fetch(`${url}/__calibrate`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s: ${stderr.trim()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pids: () => withChildren(child.pid!), stop, bytesDir };
}
