// Public reads: a weak ETag over the body, so browsers and proxies revalidate cheaply (304).
import { createHash } from 'node:crypto';
import type { Context } from 'hono';

export function cachedJson(c: Context, data: unknown, maxAgeSeconds = 0) {
  const body = JSON.stringify(data);
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  c.header('ETag', etag);
  c.header('Cache-Control', `public, max-age=${maxAgeSeconds}, must-revalidate`);
  if (c.req.header('if-none-match') === etag) return c.body(null, 304);
  c.header('Content-Type', 'application/json; charset=UTF-8');
  return c.body(body);
}
