// Content collections. A post is one Markdown file in src/content/blogs/ (see README "Content").
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const blogs = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/blogs' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(1).max(300),
    author: z.string().min(1),
    pubDate: z.coerce.date(),
    /** Position on /blogs (ascending). */
    order: z.number().int().nonnegative(),
  }),
});

export const collections = { blogs };
