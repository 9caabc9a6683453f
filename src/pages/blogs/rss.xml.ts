// The blog's RSS feed (/blogs/rss.xml), prebuilt: every published post, newest first, with absolute
// links on the site's public origin (PUBLIC_SITE_URL). Drafts are never in it.
import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { blogPath, sortedBlogs } from '../../content/queries';

export const GET: APIRoute = async ({ site }) => {
  const posts = (await sortedBlogs()).sort((a, b) => b.data.pubDate.getTime() - a.data.pubDate.getTime());
  return rss({
    title: 'Ironcrest blogs',
    description: 'Developer questions answered in depth, and news from the Ironcrest forge.',
    // The channel's link is the blog; each item's path resolves against the same origin.
    site: new URL('/blogs', site ?? 'http://localhost:4321').href,
    trailingSlash: false,
    items: posts.map((post) => ({
      title: post.data.title,
      description: post.data.description,
      pubDate: post.data.pubDate,
      link: blogPath(post),
      categories: post.data.tags,
    })),
    customData: '<language>en</language>',
  });
};
