// The origin check for API writes. Our calls carry a bearer token, which a page on another site cannot
// read, so this is defence in depth: a browser's write whose Origin is neither the public origin
// (PUBLIC_SITE_URL, what a TLS proxy serves) nor the host it addressed is refused. Non-browser clients
// send no Origin and pass; they still need a token.
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';

export function allowedOrigin(req: IncomingMessage, config: Pick<Config, 'siteUrl'>): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (config.siteUrl && origin === new URL(config.siteUrl).origin) return true;
  const host = req.headers['x-forwarded-host'] ?? req.headers.host;
  return origin === `http://${host}` || origin === `https://${host}`;
}
