// The outer server's answers that need nothing of the request's handling: the security headers every
// answer carries, a JSON answer, the answer while the database opens, a path in another spelling.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Target } from '../http/paths.ts';

// As a flat name/value list: written with writeHead on the hot paths, with setHeader elsewhere.
export const securityHeaders = [
  'X-Content-Type-Options',
  'nosniff',
  'Referrer-Policy',
  'strict-origin-when-cross-origin',
  'X-Frame-Options',
  'DENY',
  'Cross-Origin-Opener-Policy',
  'same-origin-allow-popups',
  'Permissions-Policy',
  'camera=(), microphone=(), geolocation=(), payment=(self)',
];
/** What a hashed script or stylesheet keeps of them (the rest are rules for documents). */
export const subresourceHeaders = ['X-Content-Type-Options', 'nosniff'];
export const hsts = ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'];

export function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store', ...extra });
  res.end(text);
}

/** Before the database is open: alive, not ready, and every other call asked to come back. */
export function answerStarting(res: ServerResponse, pathname: string) {
  if (pathname === '/api/health') return sendJson(res, 200, { ok: true });
  sendJson(
    res,
    503,
    { error: { code: 'starting', message: 'The store is starting. Please try again in a moment.' } },
    { 'Retry-After': '2' },
  );
}

/** The answer to a target in another spelling (http/paths.ts): a read is redirected there, anything else refused. */
export function writeOtherSpelling(
  req: IncomingMessage,
  res: ServerResponse,
  headers: string[],
  target: Exclude<Target, { kind: 'ok' }>,
) {
  if (target.kind === 'redirect' && (req.method === 'GET' || req.method === 'HEAD')) {
    res.writeHead(308, [...headers, 'Location', target.location, 'Cache-Control', 'no-store', 'Content-Length', '0']);
  } else {
    const status = target.kind === 'bad' ? target.status : 400;
    const body = JSON.stringify({
      error: { code: 'bad_path', message: 'The request path is not valid. Please use the canonical URL.' },
    });
    res.writeHead(status, [
      ...headers,
      'Content-Type',
      'application/json; charset=UTF-8',
      'Cache-Control',
      'no-store',
      'Content-Length',
      String(Buffer.byteLength(body)),
    ]);
    res.write(body);
  }
  res.end();
}
