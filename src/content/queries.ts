// Build-time queries over the content collections (kept out of src/lib, which must run anywhere).
import { getCollection, type CollectionEntry } from 'astro:content';

export type BlogEntry = CollectionEntry<'blogs'>;

/** The blogs collection in the order the list shows it (frontmatter `order`, then title). */
export async function sortedBlogs(): Promise<BlogEntry[]> {
  const entries = await getCollection('blogs');
  return entries.sort((a, b) => a.data.order - b.data.order || a.data.title.localeCompare(b.data.title));
}

export const blogPath = (entry: BlogEntry): string => `/blogs/${entry.id}`;

/** The one portfolio /myportfolio shows (src/content/portfolio/ holds exactly one entry). */
export async function loadPortfolio(): Promise<CollectionEntry<'portfolio'>['data']> {
  const entries = await getCollection('portfolio');
  if (entries.length !== 1) throw new Error(`src/content/portfolio/ must hold one entry, not ${entries.length}`);
  return entries[0].data;
}
