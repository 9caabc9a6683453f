// Every /api/* request goes to the Hono app (src/server/app.ts), in this process.
import type { APIRoute } from 'astro';
import { getApi } from '../../server/deps';

export const prerender = false;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  const { app } = await getApi();
  return app.fetch(request, { clientAddress });
};
