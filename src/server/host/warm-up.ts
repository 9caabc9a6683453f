// The pages most visitors open first, rendered once before the store says it is ready: a visitor within
// the copy's 10 s after a start or a deploy gets it (~4 ms), and a later one a render by compiled code
// (~100 ms), not one by a process whose code is not yet compiled (~400 ms for the home page). Requests
// that arrive meanwhile join these renders.
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const WARM_PATHS = ['/', '/tools'];

/** GETs each path from this server, one after another; a failure or timeout is skipped, not fatal. */
export async function warmPages(server: Server, paths = WARM_PATHS, timeoutMs = 10_000): Promise<void> {
  const { port, family, address } = server.address() as AddressInfo;
  const any = address === '0.0.0.0' || address === '::';
  const host = any ? (family === 'IPv6' ? '::1' : '127.0.0.1') : address;
  for (const path of paths) await get(host, port, path, timeoutMs).catch(() => {});
}

function get(host: string, port: number, path: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port, path, headers: { 'accept-encoding': 'br, gzip', 'x-request-id': 'warm-up' }, timeout: timeoutMs },
      (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`warming ${path} took over ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
