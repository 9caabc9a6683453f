// Starts bare-server.ts with the answers our server gave, so both are measured on the same bytes.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { HOST, onCleanup, PORTS, stopChild, TMP } from './store.ts';

export interface Bare {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Headers each server writes for itself; every other header ours sent (type, encoding, caching, the
 * security headers, the page's CSP, the request id) the bare server sends too, so both put the same
 * bytes on the wire. The request id is sent as ours sent it once: bare does the least work possible.
 */
const OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Our answer's headers but those each server writes for itself: what a peer must send to match it. */
export function sameHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([k, v]) => !OWN.has(k) && v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
}

/** Asks our server for each path with `headers` and starts a bare server answering the same. */
export async function startBareLike(
  serverUrl: string,
  paths: string[],
  headers: Record<string, string> = {},
  port: number = PORTS.bare,
): Promise<Bare> {
  const responses: Record<string, { body: string; headers: Record<string, string> }> = {};
  for (const p of paths) {
    const r = await rawGet(serverUrl + p, headers);
    if (r.status !== 200) throw new Error(`${p} answered ${r.status}`);
    responses[p] = { body: r.body.toString('base64'), headers: sameHeaders(r.headers) };
  }
  mkdirSync(TMP, { recursive: true });
  const file = path.join(TMP, `bare-responses-${port}.json`);
  writeFileSync(file, JSON.stringify(responses));
  const child = spawn(process.execPath, [path.resolve('scripts/bench/bare-server.ts'), String(port), file], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () => stopChild(child);
  onCleanup(stop);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.once('message', () => resolve());
  });
  child.removeAllListeners('exit');
  return { url: `http://${HOST}:${port}`, pid: child.pid!, stop };
}

/** A GET whose body is kept as bytes (a brotli page is not text). */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Buffer; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
