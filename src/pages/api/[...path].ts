// /api under `astro dev` only: in production the outer server (src/server/main.ts) answers /api itself,
// before Astro, with the same Hono app. In a build this route answers 404: a path that only Astro's
// router would read as /api (a socket's `/x/../api/contact`) must not reach the API past the outer
// server's limits and client-address rules.
import type { APIRoute } from 'astro';

export const prerender = false;

export const ALL: APIRoute = ({ request, clientAddress, locals }) =>
  import.meta.env.DEV
    ? locals.runtime!.app.fetch(request, { clientAddress })
    : Response.json({ error: { code: 'not_found', message: 'No such API route' } }, { status: 404 });
