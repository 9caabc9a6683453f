// Under `astro dev` there is no outer server: this opens the one runtime of the dev process and hands it
// to pages and the API route as `locals.runtime`. In production src/server/main.ts gives it with every
// request; while prerendering no page needs it. A page rendered on request leaves compressed
// (server/host/compress-html.ts) with its own policy (server/host/page-policy.ts); a page that shows live data
// (`Astro.locals.live`) is handed back to the outer server, which keeps it until that data changes
// (server/host/live-pages.ts).
import { defineMiddleware } from 'astro:middleware';
import { compressHtml } from './server/host/compress-html.ts';
import type { Runtime } from './server/runtime.ts';

let devRuntime: Promise<Runtime> | undefined;
/**
 * The content editor's screens and calls (npm run edit) work on files, not the runtime. Only the editor's dev
 * server has them: a build drops this test (DEV is false there), so no trace of the editor is in its output.
 */
const editorPath = (path: string) =>
  import.meta.env.DEV && process.env.CONTENT_EDITOR === '1' && /^\/(api\/)?keystatic(\/|$)/.test(path);

export const onRequest = defineMiddleware(async (context, next) => {
  if (!context.locals.runtime && !context.isPrerendered && !editorPath(context.url.pathname)) {
    devRuntime ??= Promise.all([import('./server/runtime.ts'), import('./server/config.ts')]).then(
      ([{ openRuntime }, { config }]) => openRuntime(config()),
    );
    context.locals.runtime = await devRuntime;
  }
  const response = await next();
  if (context.isPrerendered) return response;
  const { live, livePage } = context.locals;
  if (live && livePage && response.status === 200) return livePage.keep(context.request, response, live);
  return compressHtml(context.request, response);
});
