// The sitemap, rendered on request from the live catalogue (tools added or deleted since the build
// show at once): the static pages, every blog post and every tool.
import type { APIRoute } from 'astro';
import { blogPath, sortedBlogs } from '../content/queries';
import { isoDate } from '../lib/dates';

export const prerender = false;

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const GET: APIRoute = async ({ site, locals }) => {
  const base = site ?? new URL('http://localhost:4321');
  const [tools, posts] = await Promise.all([locals.store!.tools.list(), sortedBlogs()]);
  const entries: { path: string; lastmod?: string }[] = [
    { path: '/' },
    { path: '/blogs' },
    ...posts.map((post) => ({ path: blogPath(post), lastmod: isoDate(post.data.pubDate) })),
    { path: '/myportfolio' },
    ...tools.map((tool) => ({ path: `/tools/${tool._id}` })),
  ];
  const urls = entries.map(({ path, lastmod }) => {
    const loc = `<loc>${escapeXml(new URL(path, base).href)}</loc>`;
    return `  <url>${loc}${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=60' },
  });
};
