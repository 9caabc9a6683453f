// The content editor's fields (keystatic.config.ts) cannot drift from the content schemas
// (src/content/schemas.ts): the same field names, required and optional alike, and the same limits
// (probed at their edges). And the comparison itself catches a field added to one side only, a changed
// limit, pattern, list length or requirement (on copies of each side).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fields } from '@keystatic/core';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import cms from '../../keystatic.config';
import { blogSchema, pageSchema, portfolioSchema } from '../../src/content/schemas';
import { differences } from './cms-fields';

const post = {
  title: 'A post',
  description: 'What it is about.',
  author: 'Someone',
  pubDate: '2026-11-25',
  updatedDate: '2026-11-26',
  order: 1,
  draft: true,
  tags: ['react'],
  cover: { src: './covers/a-post/cover/src.jpg', alt: 'A picture' },
};
const page = { title: 'Privacy', description: 'What we keep.', updatedDate: '2026-11-25' };
const portfolio = JSON.parse(readFileSync('src/content/portfolio/alex-morgan.json', 'utf8'));

const blogs = cms.collections!.blogs.schema;
const pages = cms.collections!.pages.schema;
const card = cms.singletons!.portfolio.schema;

/**
 * The one difference by design: a post may have no cover, so neither part of it is required in the editor
 * (an empty cover is written `cover: {}`), and Keystatic cannot require a field only when its object is
 * filled in. content:check refuses half a cover instead (`cover.src: missing`, `cover.alt: missing`).
 */
const HALF_A_COVER = [
  'cover.src = missing: only the editor accepts',
  'cover.src = "": only the editor accepts',
  'cover.alt = missing: only the editor accepts',
  'cover.alt = "": only the editor accepts',
];

describe('the content editor against the content schemas', () => {
  it('blog posts: the same fields and limits, but for half a cover', () => {
    expect(differences(blogSchema(), blogs, post, 'title')).toEqual(HALF_A_COVER);
  });

  it('footer pages and the portfolio: the same fields and limits', () => {
    expect(differences(pageSchema, pages, page, 'title')).toEqual([]);
    expect(differences(portfolioSchema, card, portfolio)).toEqual([]);
  });

  describe('the comparison fails when one side changes', () => {
    it('a field added to the schema only, or to the editor only', () => {
      expect(differences(blogSchema().extend({ subtitle: z.string() }), blogs, post, 'title')).toEqual([
        'subtitle: only in the content schema',
      ]);
      const withSubtitle = { ...blogs, subtitle: fields.text({ label: 'Subtitle' }) };
      expect(differences(blogSchema(), withSubtitle, post, 'title')).toEqual(['subtitle: only in the editor']);
      const project = portfolioSchema.shape.projects.element.extend({ year: z.string() });
      expect(differences(portfolioSchema.extend({ projects: z.array(project).length(3) }), card, portfolio)).toEqual([
        'projects.[].year: only in the content schema',
      ]);
    });

    it('a field required on one side and optional on the other', () => {
      const author = fields.text({ label: 'Author' });
      expect(differences(blogSchema(), { ...blogs, author }, post, 'title')).toEqual([
        ...diff('author', ['missing', '""'], 'only the editor accepts'),
        ...HALF_A_COVER,
      ]);
      expect(differences(pageSchema.extend({ updatedDate: z.coerce.date().optional() }), pages, page, 'title')).toEqual(
        ['updatedDate = missing: the editor refuses'],
      );
    });

    it('a length limit, a pattern or a type that differs', () => {
      const short = fields.text({
        label: 'Description',
        validation: { isRequired: true, length: { min: 1, max: 200 } },
      });
      expect(differences(pageSchema, { ...pages, description: short }, page, 'title')).toEqual([
        'description = "a"×300: the editor refuses',
      ]);
      const tags = fields.array(
        fields.text({ label: 'Tag', validation: { isRequired: true, pattern: { regex: /^[a-z]+$/, message: 'x' } } }),
      );
      expect(differences(blogSchema(), { ...blogs, tags }, post, 'title')).toEqual([
        ...diff('tags.[]', ['"two-words"'], 'the editor refuses'),
        ...HALF_A_COVER,
      ]);
      const updatedDate = fields.text({ label: 'Updated on', validation: { isRequired: true, length: { min: 1 } } });
      expect(differences(pageSchema, { ...pages, updatedDate }, page, 'title')).toContain(
        'updatedDate = "someday": only the editor accepts',
      );
    });

    it('a list length that differs', () => {
      const projects = fields.array(card.projects.element, {
        label: 'Projects',
        validation: { length: { min: 3, max: 4 } },
      });
      expect(differences(portfolioSchema, { ...card, projects }, portfolio)).toEqual([
        'projects = 4 items: only the editor accepts',
      ]);
    });
  });
});

const diff = (field: string, values: string[], verdict: string) => values.map((v) => `${field} = ${v}: ${verdict}`);

describe('the editor is a development tool', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );

  it('its packages are devDependencies, which the store, its server and its build never import', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const keystatic = (deps: Record<string, string>) =>
      Object.keys(deps).filter((name) => name.startsWith('@keystatic/'));
    expect(keystatic(pkg.devDependencies)).toEqual(['@keystatic/astro', '@keystatic/core']);
    expect(keystatic(pkg.dependencies)).toEqual([]);
    // Only the editor's own files name them: keystatic.config.ts and scripts/lib/editor.ts.
    const naming = [...files('src'), ...files('scripts'), 'astro.config.mjs'].filter((file) =>
      readFileSync(file, 'utf8').includes('@keystatic/'),
    );
    expect(naming).toEqual([path.join('scripts', 'lib', 'editor.ts')]);
    // astro.config.mjs loads scripts/lib/editor.ts only under `npm run edit`, when it is needed.
    const config = readFileSync('astro.config.mjs', 'utf8');
    expect(config.match(/scripts\/lib\/editor\.ts/g)).toEqual(['scripts/lib/editor.ts']);
    expect(config).toMatch(/editing \? \(await import\('\.\/scripts\/lib\/editor\.ts'\)\)/);
  });
});
