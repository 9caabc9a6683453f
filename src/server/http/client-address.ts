// Who is calling, behind TRUST_PROXY trusted proxy hops (counted as Express's `trust proxy` counts
// them: 1 = nginx alone, 2 = a CDN in front of nginx). Each proxy appends the address it received the
// request from to X-Forwarded-For, so the client is the entry `hops` places from the socket's end;
// entries further left were written by the client and are never trusted. With 0 the header is ignored.
import type { IncomingMessage } from 'node:http';

export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const socket = normalise(req.socket.remoteAddress ?? 'unknown');
  if (trustProxy <= 0) return socket;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Nearest first: the socket peer, then what each trusted proxy saw.
  const chain = [socket, ...forwarded.reverse().map(normalise)];
  return chain[Math.min(trustProxy, chain.length - 1)];
}

/** Whether the request reached the first trusted proxy over HTTPS (only a trusted proxy may say so). */
export function forwardedHttps(req: IncomingMessage, trustProxy: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (trustProxy <= 0) return false;
  const proto = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    .trim();
  return proto === 'https';
}

/** '::ffff:127.0.0.1' and '127.0.0.1' are one client. */
const normalise = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address);
