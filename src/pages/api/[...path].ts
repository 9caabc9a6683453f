// /api under `astro dev` only: in production the outer server (src/server/main.ts) answers /api itself,
// before Astro, with the same Hono app.
import type { APIRoute } from 'astro';

export const prerender = false;

export const ALL: APIRoute = ({ request, clientAddress, locals }) => locals.store!.app.fetch(request, { clientAddress });
