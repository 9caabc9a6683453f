// The outer server (src/server/host/outer-server.ts) in-process over a test store, on a real port, with a
// small prebuilt site and a stand-in for Astro that records what reached it. Requests go over raw
// sockets: fetch would normalise the paths these tests are about.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { outerServer, type AstroHandler } from '../../src/server/host/outer-server';
import type { Runtime } from '../../src/server/runtime';
import type { TestRuntime } from './harness';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
}

export async function startOuter(
  runtime: TestRuntime,
  options: { trustProxy?: number; env?: Record<string, string>; buildsDir?: string } = {},
) {
  const dirs: string[] = [];
  /** A small prebuilt site: its files by path under client/. */
  const site = (files: Record<string, string>) => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-outer-'));
    dirs.push(dist);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dist, 'client', file)), { recursive: true });
      writeFileSync(path.join(dist, 'client', file), text);
    }
    return dist;
  };
  const dist = site({
    'blogs/index.html': '<!doctype html><title>Blogs</title>',
    '_astro/app.Ab12Cd34.js': 'export const app = 1;\n',
    '_astro/logo.Ab12Cd34.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  });
  const astroSaw: string[] = [];
  const astro: AstroHandler = async (req, res) => {
    astroSaw.push(req.url!);
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Not found</title>');
  };
  const asRuntime = { ...runtime, changes: runtime.deps.changes, close: async () => {} } as unknown as Runtime;
  const config = { ...runtime.deps.config, trustProxy: options.trustProxy ?? runtime.deps.config.trustProxy };
  const outer = outerServer({
    config,
    dist,
    astro,
    buildId: '20261126-100000-aaaa',
    buildsDir: options.buildsDir,
    runtime: () => asRuntime,
    env: options.env ?? {},
  });
  const server: Server = createServer(outer.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  /** Sends one request exactly as written (a request line, headers, a body) and reads the whole answer. */
  function raw(method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<RawResponse> {
    const started = performance.now();
    const head = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
    for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
    if (body) head.push(`Content-Length: ${Buffer.byteLength(body)}`);
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [top, ...rest] = text.split('\r\n\r\n');
        const lines = top.split('\r\n');
        const status = Number(lines[0]?.split(' ')[1] ?? 0);
        const parsed: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const at = line.indexOf(':');
          parsed[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
        }
        let payload = rest.join('\r\n\r\n');
        if (parsed['transfer-encoding'] === 'chunked') payload = dechunk(payload);
        resolve({ status, headers: parsed, body: payload, ms: performance.now() - started });
      });
      // Not end(): a half-closed socket may lose the answer; Connection: close makes the server end it.
      socket.write(head.join('\r\n') + '\r\n\r\n' + body);
    });
  }

  return {
    port,
    astroSaw,
    raw,
    /** Serves another prebuilt site (a publish), keeping the last one's hashed assets for `graceMs`. */
    switchBuild(id: string, files: Record<string, string>, graceMs: number) {
      outer.switchBuild({ id, dir: site(files), astro }, graceMs);
    },
    /** A build directory with these files under client/ (and the other files given, e.g. `.build-stamp`). */
    site,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type Outer = Awaited<ReturnType<typeof startOuter>>;

function dechunk(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const eol = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}
