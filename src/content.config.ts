// Content collections. A post is one Markdown file in src/content/blogs/ (see README "Content"); each
// footer link's page is one Markdown file in src/content/pages/; the portfolio on /myportfolio is one
// JSON file in src/content/portfolio/. The schemas are src/content/schemas.ts, which
// scripts/content-check.ts uses too.
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { blogSchema, pageSchema, portfolioSchema } from './content/schemas';

const blogs = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/blogs' }),
  schema: ({ image }) => blogSchema(image),
});

const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/pages' }),
  schema: pageSchema,
});

const portfolio = defineCollection({
  loader: glob({ pattern: '*.json', base: './src/content/portfolio' }),
  schema: portfolioSchema,
});

export const collections = { blogs, pages, portfolio };
