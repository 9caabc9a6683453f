import { createHash } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { metaContract } from '../../lib/contracts/meta.ts';
import { anyone } from '../auth/guards.ts';
import { compressHtml } from '../host/compress-html.ts';
import { cachedJson } from '../http/cache.ts';
import { contractRouter } from '../http/contract-router.ts';
import type { AppEnv, Deps } from '../types.ts';
import { docsPage, docsPolicy } from './docs-page.ts';
import { openApiDocument, type OpenApiDocument } from './openapi.ts';
import { readiness } from './readiness.ts';

/** The API's version in its document: the major part moves only when a call changes incompatibly. */
const VERSION = '1.0.0';

/** `api`: the API these routes describe, read once its routers are all mounted (at the first call). */
export function metaRoutes(deps: Deps, api: () => OpenAPIHono<AppEnv>) {
  let document: OpenApiDocument | undefined;
  let page: { html: string; etag: string } | undefined;
  const described = () => (document ??= openApiDocument(api(), VERSION));
  return (
    contractRouter(deps)
      // Liveness: the process answers. Readiness: the server has warmed up after its start (main.ts,
      // host/warm-up.ts) and the database answers and can take writes (migrations ran before the app was
      // built; the disk has room; it is not read-only), so a proxy or orchestrator sends traffic only where
      // it can be served, and served fast.
      .on(metaContract.health, anyone, () => ({ ok: true }))
      .on(metaContract.ready, anyone, async (c) => {
        if (deps.warmingUp?.())
          return c.json(
            { ok: false, database: deps.db.kind, error: { code: 'warming_up', message: 'The server is warming up.' } },
            503,
          );
        const writable = await readiness(deps.db);
        if (!writable.ok)
          return c.json(
            { ok: false, database: deps.db.kind, error: { code: 'storage_unavailable', message: writable.reason } },
            503,
          );
        return { ok: true, database: deps.db.kind };
      })
      .on(metaContract.openapi, anyone, (c) => cachedJson(c, described()))
      .on(metaContract.docs, anyone, (c) => {
        page ??= (() => {
          const html = docsPage(described());
          return { html, etag: `"${createHash('sha1').update(html).digest('base64url')}"` };
        })();
        c.header('Content-Security-Policy', docsPolicy);
        c.header('Cache-Control', 'public, max-age=0, must-revalidate');
        c.header('ETag', page.etag);
        if (c.req.header('if-none-match') === page.etag) return c.body(null, 304);
        // ~130 kB of HTML: sent compressed, as the pages rendered on request are.
        return compressHtml(c.req.raw, c.html(page.html));
      }).app
  );
}
