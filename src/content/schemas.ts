// The content collections' schemas, in a plain module: src/content.config.ts gives them to Astro, and
// scripts/content-check.ts (npm run content:check, and every build) checks the files with the same ones.
import { z } from 'zod';

/** A tag: lower-case words joined by dashes ("unit-testing"). The content editor's tag field uses it too. */
export const TAG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const date = () => z.coerce.date({ error: 'a date like 2026-11-25' });

/** The content editor (keystatic.config.ts) writes `cover: {}` for a post without a cover: that is no cover. */
const emptyAsAbsent = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0
    ? undefined
    : value;

/**
 * A post. `image` is how a cover's file is read: Astro's `image()` in the build (resized, with a srcset),
 * a path here for scripts/content-check.ts, which checks the file exists.
 */
export const blogSchema = <Image extends z.ZodType = z.ZodString>(image: () => Image = () => z.string().min(1) as unknown as Image) =>
  z.object({
    title: z.string().min(1),
    description: z.string().min(1).max(300),
    author: z.string().min(1),
    pubDate: date(),
    /** When the post last changed in substance (shown beside the date, and in the sitemap). */
    updatedDate: date().optional(),
    /** Position on /blogs (ascending); two posts may not share one. */
    order: z.number().int().nonnegative(),
    /** A draft is shown by `npm run dev` only: left out of the built site, the sitemap and the feed. */
    draft: z.boolean().default(false),
    /** Lower-case words joined by dashes ("unit-testing"); each has its page, /blogs/tags/<tag>. */
    tags: z.array(z.string().regex(TAG_PATTERN, 'a tag is lower-case words joined by dashes')).default([]),
    /** A picture at the top of the post: a file beside it (`./covers/<post>/cover/src.jpg`) and what it shows. */
    cover: z.preprocess(emptyAsAbsent, z.object({ src: image(), alt: z.string().min(1) }).optional()),
  });

/** The footer's pages (Services, Company, Legal): one Markdown file each, its name the page's path. */
export const pageSchema = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(300),
  /** When the text last changed (the page shows it). */
  updatedDate: date(),
});

/**
 * The developer portfolio (spec: /myportfolio, a static card). Its one entry is entirely fictional: the
 * person, contact details, projects and links are placeholders, every URL on the reserved example.com.
 */
/** A web address the page links to: http or https only (never `javascript:`). */
const webAddress = () => z.url({ protocol: /^https?$/ });

export const portfolioSchema = z.object({
  name: z.string().min(1),
  role: z.string().min(1),
  email: z.email(),
  location: z.string().min(1),
  summary: z.string().min(1),
  education: z.array(z.object({ degree: z.string().min(1), school: z.string().min(1), years: z.string().min(1) })).min(1),
  skills: z.array(z.string().min(1)).min(1),
  /** The page shows three live projects. */
  projects: z.array(z.object({ name: z.string().min(1), description: z.string().min(1), url: webAddress() })).length(3),
  links: z.array(z.object({ label: z.string().min(1), url: webAddress() })).min(1),
});
