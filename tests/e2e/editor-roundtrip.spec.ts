// Issue 28: an existing post, page or the portfolio saved in the CMS (`npm run edit`) without a change
// keeps its content. Keystatic writes the file in its own style (YAML without quotes, `*` bullets, aligned
// tables, `draft: false`, `cover: {}`), so the test compares what is read, not the bytes: the same fields
// through the content schema, the same HTML from Astro's Markdown renderer, and content:check content.
// Every file is put back as it was afterwards. Runs in the `editor` project, after the other specs.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import { expect, test } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { blogSchema, pageSchema } from '../../src/content/schemas';
import { keep, save, startEditor, type Editor } from './editor';

interface Entry {
  file: string;
  /** The entry's screen in the CMS. */
  screen: string;
  /** The text field the test changes and changes back. */
  field: string;
  schema?: z.ZodType;
}

const posts = readdirSync('src/content/blogs').filter((f) => f.endsWith('.md'));
const ENTRIES: Entry[] = [
  ...posts.map((f) => ({
    file: `src/content/blogs/${f}`,
    screen: `/collection/blogs/item/${f.replace(/\.md$/, '')}`,
    field: 'Title',
    schema: blogSchema(),
  })),
  // A table, and a list of links.
  ...['privacy', 'contact'].map((name) => ({
    file: `src/content/pages/${name}.md`,
    screen: `/collection/pages/item/${name}`,
    field: 'Title',
    schema: pageSchema,
  })),
  { file: 'src/content/portfolio/alex-morgan.json', screen: '/singleton/portfolio', field: 'Name' },
];

let editor: Editor;
const putBack = keep(ENTRIES.map((e) => e.file));

test.beforeAll(async () => {
  editor = await startEditor('.data-e2e-edit');
});

test.afterAll(async () => {
  await editor?.stop();
  putBack();
});

/** What the build reads from a file: its frontmatter through the schema and its body as HTML, or its JSON. */
async function reading(entry: Entry, text: string) {
  if (!entry.schema) return JSON.parse(text) as unknown;
  const [, front, body] = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text)!;
  const markdown = await createSatteriMarkdownProcessor({ syntaxHighlight: false } as never);
  return { data: entry.schema.parse(parseYaml(front)), html: (await markdown.render(body)).code };
}

test('posts, footer pages and the portfolio saved in the CMS read the same: fields, rendered text, content:check', async ({
  page,
}) => {
  test.setTimeout(3 * 60_000);
  const before = new Map(ENTRIES.map((e) => [e.file, readFileSync(e.file, 'utf8')]));
  try {
    for (const entry of ENTRIES) {
      await page.goto(editor.url + entry.screen);
      const field = page.getByRole('textbox', { name: entry.field, exact: true }).first();
      const value = await field.inputValue();
      expect(value, entry.file).not.toBe('');
      // An unchanged entry is not saved at all; a change and its undoing rewrites the file.
      await field.fill(`${value} x`);
      await save(page);
      await field.fill(value);
      await save(page);
    }
    const rewritten = ENTRIES.filter((e) => readFileSync(e.file, 'utf8') !== before.get(e.file)).map((e) => e.file);
    expect(rewritten.length, 'files Keystatic rewrote in its own style').toBeGreaterThan(0);
    for (const entry of ENTRIES)
      expect(await reading(entry, readFileSync(entry.file, 'utf8')), entry.file).toEqual(
        await reading(entry, before.get(entry.file)!),
      );
    const check = spawnSync(process.execPath, ['scripts/content-check.ts'], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  } finally {
    putBack();
  }
});
