// npm run content:check (scripts/lib/content-check.ts) on a set of broken posts: one line each, naming
// the file, the line and the field; the project's own content passes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent, contentCheckIntegration, formatProblem } from '../../scripts/lib/content-check';

const root = mkdtempSync(path.join(os.tmpdir(), 'content-check-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string) {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}
const post = (front: string, body = 'Text.') => `---\n${front}\n---\n\n${body}\n`;
const good = (order: number, extra = '') =>
  `title: 'A post'\ndescription: 'What it is about.'\nauthor: 'Someone'\npubDate: 2026-11-25\norder: ${order}${extra}`;

write('src/pages/index.astro', '');
write('src/pages/blogs/index.astro', '');
write('src/pages/blogs/[slug].astro', '');
write('src/pages/[page].astro', '');
write('public/images/hero.svg', '<svg/>');
write('src/content/pages/privacy.md', post(`title: 'Privacy'\ndescription: 'What we keep.'\nupdatedDate: 2026-11-25`));
write(
  'src/content/blogs/fine.md',
  post(
    good(1, '\ntags: [react]'),
    'See [the other](/blogs/no-title), [privacy](/privacy#cookies), [tag](/blogs/tags/react), [home](/#contact), [a tool](/tools/abc) and ![hero](/images/hero.svg).',
  ),
);
write('src/content/blogs/no-title.md', post(`description: 'x'\nauthor: 'Someone'\npubDate: 2026-11-25\norder: 2`));
write('src/content/blogs/bad-date.md', post(good(3).replace('pubDate: 2026-11-25', "pubDate: 'someday'")));
write('src/content/blogs/same-order.md', post(good(1)));
write('src/content/blogs/bad-tag.md', post(good(4, '\ntags: [React Hooks]')));
write('src/content/blogs/broken-link.md', post(good(5), 'Intro.\n\nRead [this](/blogs/gone) first.'));
write('src/content/blogs/missing-image.md', post(good(6), '![a saw](/images/saw.png)'));
write('src/content/blogs/relative-link.md', post(good(7), '[other](other-post)'));
write('src/content/blogs/bad-yaml.md', post(`title: 'Unclosed\ndescription: x`));
write('src/content/blogs/no-front.md', 'Just text.\n');
write('src/content/blogs/code.md', post(good(8), '```\n[not a link](/nowhere)\n```'));
write('src/content/blogs/covers/here.jpg', 'jpeg');
write('src/content/blogs/with-cover.md', post(good(9, "\ncover:\n  src: ./covers/here.jpg\n  alt: 'A picture'")));
write('src/content/blogs/no-cover.md', post(good(10, "\ncover:\n  src: ./covers/gone.jpg\n  alt: 'A picture'")));
write('src/content/blogs/no-alt.md', post(good(11, '\ncover:\n  src: ./covers/here.jpg')));
// What the content editor writes for a post without a cover (an empty object), and with only its text.
write('src/content/blogs/empty-cover.md', post(good(12, '\ncover: {}')));
write('src/content/blogs/only-alt.md', post(good(13, "\ncover:\n  alt: 'A picture'")));

describe('content:check', () => {
  const lines = checkContent(root).map(formatProblem);

  it('names each broken post once, with its file, line and field', () => {
    expect(lines).toEqual([
      'src/content/blogs/bad-date.md:5 pubDate: a date like 2026-11-25',
      expect.stringMatching(/^src\/content\/blogs\/bad-tag\.md:7 tags\.0: a tag is lower-case words joined by dashes$/),
      expect.stringMatching(/^src\/content\/blogs\/bad-yaml\.md:\d+ frontmatter: /),
      'src/content/blogs/broken-link.md:11 link: /blogs/gone leads to no page',
      'src/content/blogs/missing-image.md:9 image: /images/saw.png does not exist',
      'src/content/blogs/no-alt.md:7 cover.alt: missing',
      'src/content/blogs/no-cover.md:7 cover.src: ./covers/gone.jpg does not exist',
      'src/content/blogs/no-front.md:1 frontmatter: the file must start with frontmatter between two --- lines',
      'src/content/blogs/no-title.md:1 title: missing',
      'src/content/blogs/only-alt.md:7 cover.src: missing',
      "src/content/blogs/relative-link.md:9 link: other-post: write internal links from the site's root (/blogs/…)",
      'src/content/blogs/same-order.md:6 order: 1 is also the order of src/content/blogs/fine.md',
    ]);
  });

  it("the project's own content passes", () => {
    expect(checkContent(process.cwd()).map(formatProblem)).toEqual([]);
  });

  it('stops a build with the same lines, and lets the dev server start', () => {
    const hook = contentCheckIntegration(root).hooks['astro:config:setup'];
    expect(() => hook({ command: 'build' })).toThrow(lines.join('\n'));
    expect(() => hook({ command: 'dev' })).not.toThrow();
    expect(() =>
      contentCheckIntegration(process.cwd()).hooks['astro:config:setup']({ command: 'build' }),
    ).not.toThrow();
  });
});
