// Build-time queries over the content collections (kept out of src/lib, which must run anywhere).
// The blogs collection in the order the list shows it (frontmatter `order`, then title).
import { getCollection, type CollectionEntry } from 'astro:content';

export type BlogEntry = CollectionEntry<'blogs'>;

export async function sortedBlogs(): Promise<BlogEntry[]> {
  const entries = await getCollection('blogs');
  return entries.sort((a, b) => a.data.order - b.data.order || a.data.title.localeCompare(b.data.title));
}

export const blogPath = (entry: BlogEntry): string => `/blogs/${entry.id}`;
