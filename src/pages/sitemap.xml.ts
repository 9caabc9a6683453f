// The sitemap, rendered on request from the live catalogue (tools added or deleted since the build
// show at once): the static pages, every published blog post and tag, the footer's pages and every tool.
import type { APIRoute } from 'astro';
import { blogPath, footerPages, pagePath, publishedBlogs, tagPath } from '../content/queries';
import { isoDate } from '../lib/dates';

export const prerender = false;

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const GET: APIRoute = async ({ site, locals }) => {
  const base = site ?? new URL('http://localhost:4321');
  const [tools, posts, pages] = await Promise.all([locals.runtime!.tools.list(), publishedBlogs(), footerPages()]);
  const tags = [...new Set(posts.flatMap((post) => post.data.tags))];
  const entries: { path: string; lastmod?: string }[] = [
    { path: '/' },
    { path: '/blogs' },
    ...posts.map((post) => ({ path: blogPath(post), lastmod: isoDate(post.data.updatedDate ?? post.data.pubDate) })),
    ...tags.map((tag) => ({ path: tagPath(tag) })),
    { path: '/myportfolio' },
    ...pages.map((page) => ({ path: pagePath(page), lastmod: isoDate(page.data.updatedDate) })),
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
