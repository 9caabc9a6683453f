// Under `astro dev` there is no outer server: this opens the one store of the dev process and hands it
// to pages and the API route as `locals.store`. In production src/server/main.ts gives it with every
// request, so this does nothing; while prerendering no page needs it. Pages rendered on request leave
// compressed (server/compress-html.ts).
import { defineMiddleware } from 'astro:middleware';
import { compressHtml } from './server/compress-html.ts';
import type { Store } from './server/store.ts';

let devStore: Promise<Store> | undefined;

export const onRequest = defineMiddleware(async (context, next) => {
  if (!context.locals.store && !context.isPrerendered) {
    devStore ??= Promise.all([import('./server/store.ts'), import('./server/config.ts')]).then(
      ([{ openStore }, { config }]) => openStore(config()),
    );
    context.locals.store = await devStore;
  }
  const response = await next();
  return context.isPrerendered ? response : compressHtml(context.request, response);
});
