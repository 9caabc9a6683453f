// Content collections. A post is one Markdown file in src/content/blogs/ (see README "Content"); each
// footer link's page is one Markdown file in src/content/pages/; the portfolio on /myportfolio is one
// JSON file in src/content/portfolio/.
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
    /** When the post last changed in substance (shown beside the date, and in the sitemap). */
    updatedDate: z.coerce.date().optional(),
    /** Position on /blogs (ascending). */
    order: z.number().int().nonnegative(),
    /** A draft is shown by `npm run dev` only: left out of the built site, the sitemap and the feed. */
    draft: z.boolean().default(false),
    /** Lower-case words joined by dashes ("unit-testing"); each has its page, /blogs/tags/<tag>. */
    tags: z.array(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a tag is lower-case words joined by dashes')).default([]),
  }),
});

/** The footer's pages (Services, Company, Legal): one Markdown file each, its name the page's path. */
const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/pages' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(1).max(300),
    /** When the text last changed (legal pages show it). */
    updatedDate: z.coerce.date(),
  }),
});

/**
 * The developer portfolio (spec: /myportfolio, a static card). Its one entry is entirely fictional: the
 * person, contact details, projects and links are placeholders, every URL on the reserved example.com.
 */
const portfolio = defineCollection({
  loader: glob({ pattern: '*.json', base: './src/content/portfolio' }),
  schema: z.object({
    name: z.string().min(1),
    role: z.string().min(1),
    email: z.email(),
    location: z.string().min(1),
    summary: z.string().min(1),
    education: z.array(z.object({ degree: z.string().min(1), school: z.string().min(1), years: z.string().min(1) })).min(1),
    skills: z.array(z.string().min(1)).min(1),
    /** The page shows three live projects. */
    projects: z.array(z.object({ name: z.string().min(1), description: z.string().min(1), url: z.url() })).length(3),
    links: z.array(z.object({ label: z.string().min(1), url: z.url() })).min(1),
  }),
});

export const collections = { blogs, pages, portfolio };
