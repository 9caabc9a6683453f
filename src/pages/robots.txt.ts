// robots.txt, prebuilt, so its Sitemap line carries the configured site URL (it must be absolute).
import type { APIRoute } from 'astro';

export const prerender = true;

export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap.xml', site ?? 'http://localhost:4321').href;
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Allow: /api/images/',
    'Disallow: /dashboard',
    '',
    `Sitemap: ${sitemap}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
