// Build-time queries over the content collections (kept out of src/lib, which must run anywhere).
import { getCollection, type CollectionEntry } from 'astro:content';

export type BlogEntry = CollectionEntry<'blogs'>;
export type PageEntry = CollectionEntry<'pages'>;

/** Drafts are shown by the dev server only (`npm run dev`, `npm run edit`), never built. */
const published = (entry: BlogEntry) => import.meta.env.DEV || !entry.data.draft;

/**
 * The published posts in the collection's own order: for the sitemap, rendered on request, where the order does
 * not matter and sorting titles with localeCompare would map ICU's collation data for good (no-icu-at-start.ts).
 */
export const publishedBlogs = (): Promise<BlogEntry[]> => getCollection('blogs', published);

/** The blogs collection in the order the list shows it (frontmatter `order`, then title), drafts only in dev. */
export async function sortedBlogs(): Promise<BlogEntry[]> {
  const entries = await publishedBlogs();
  return entries.sort((a, b) => a.data.order - b.data.order || a.data.title.localeCompare(b.data.title));
}

export const blogPath = (entry: BlogEntry): string => `/blogs/${entry.id}`;
export const tagPath = (tag: string): string => `/blogs/tags/${tag}`;

/** Every tag of the published posts, with its posts (in the list's order), tags alphabetically. */
export async function blogTags(): Promise<{ tag: string; posts: BlogEntry[] }[]> {
  const byTag = new Map<string, BlogEntry[]>();
  for (const post of await sortedBlogs()) for (const tag of post.data.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), post]);
  return [...byTag].sort(([a], [b]) => a.localeCompare(b)).map(([tag, posts]) => ({ tag, posts }));
}

/** The footer's pages, by path (`/privacy` is src/content/pages/privacy.md). */
export const pagePath = (entry: PageEntry): string => `/${entry.id}`;
export const footerPages = (): Promise<PageEntry[]> => getCollection('pages');

/** The one portfolio /myportfolio shows (src/content/portfolio/ holds exactly one entry). */
export async function loadPortfolio(): Promise<CollectionEntry<'portfolio'>['data']> {
  const entries = await getCollection('portfolio');
  if (entries.length !== 1) throw new Error(`src/content/portfolio/ must hold one entry, not ${entries.length}`);
  return entries[0].data;
}
