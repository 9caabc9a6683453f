// /blogs/<post>/og.png: the post's Open Graph image, prebuilt (src/content/og-image.ts).
import type { APIRoute, GetStaticPaths } from 'astro';
import { ogImage } from '../../../content/og-image';
import { sortedBlogs, type BlogEntry } from '../../../content/queries';

export const getStaticPaths = (async () =>
  (await sortedBlogs()).map((entry) => ({ params: { slug: entry.id }, props: { entry } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { entry } = props as { entry: BlogEntry };
  const png = await ogImage({ title: entry.data.title, author: entry.data.author });
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
