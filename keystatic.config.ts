// The content editor (Keystatic, opened by `npm run edit`): forms over the Markdown and JSON files in
// src/content/, written back to the same files, so Git stays the source of truth. Its fields mirror
// src/content/schemas.ts field for field; tests/unit/cms-config.test.ts fails when the two differ.
// Only the dev server of `npm run edit` loads it (astro.config.mjs): a build has no CMS route.
import { collection, config, fields, singleton } from '@keystatic/core';
import { z } from 'zod';
import { TAG_PATTERN } from './src/content/schemas.ts';

const required = { isRequired: true, length: { min: 1 } };
const text = (label: string) => fields.text({ label, validation: required });

const description = fields.text({
  label: 'Description',
  description: 'One or two sentences for lists, search engines and link previews (at most 300 characters).',
  multiline: true,
  validation: { isRequired: true, length: { min: 1, max: 300 } },
});

// Keystatic's own URL field takes relative addresses too; the portfolio's links are full web addresses.
const webAddress = (label: string) =>
  fields.text({
    label,
    validation: { isRequired: true, pattern: { regex: /^https?:\/\/\S+$/, message: 'A full address: https://…' } },
  });

// The page's title is its only first-level heading. Pictures in the text are not offered: the build has no
// place for them yet (a post's picture is its cover).
const body = fields.mdx({ label: 'Text', extension: 'md', options: { heading: [2, 3, 4], image: false } });

export default config({
  storage: { kind: 'local' },
  ui: {
    brand: { name: 'Ironcrest Tools' },
    navigation: ['blogs', 'pages', 'portfolio'],
  },
  collections: {
    blogs: collection({
      label: 'Blog posts',
      path: 'src/content/blogs/*',
      slugField: 'title',
      format: { contentField: 'content' },
      entryLayout: 'content',
      // The position next to the title: a new post needs one no other post has.
      columns: ['title', 'order', 'draft'],
      previewUrl: '/blogs/{slug}',
      schema: {
        title: fields.slug({
          name: { label: 'Title', validation: required },
          slug: {
            label: 'Address',
            description:
              'The end of the post’s address, /blogs/<address>, made from the title. Keep it once the post is published: links to it would break.',
          },
        }),
        description,
        author: text('Author'),
        pubDate: fields.date({ label: 'Published on', validation: { isRequired: true } }),
        updatedDate: fields.date({ label: 'Updated on', description: 'Only when the post changed in substance.' }),
        order: fields.integer({
          label: 'Position on /blogs',
          description: 'Smallest first; no two posts may share one (the list of posts shows the positions taken).',
          validation: { isRequired: true, min: 0 },
        }),
        draft: fields.checkbox({
          label: 'Draft',
          // Unticked by default, like a file without `draft` (Keystatic would start new posts ticked only through a
          // template, which stops the address from following the title).
          description:
            'Tick it while you write: a draft shows only in this editor’s preview, never in the published store.',
        }),
        tags: fields.array(
          fields.text({
            label: 'Tag',
            validation: {
              isRequired: true,
              pattern: { regex: TAG_PATTERN, message: 'Lower-case words joined by dashes, like unit-testing' },
            },
          }),
          {
            label: 'Tags',
            description: 'Each tag gets its page, /blogs/tags/<tag>.',
            itemLabel: (props) => props.value,
          },
        ),
        // Both parts are optional here because a post may have no cover (the file then says `cover: {}`);
        // content:check refuses a picture without its text, or a text without its picture.
        cover: fields.object(
          {
            src: fields.image({ label: 'Picture', directory: 'src/content/blogs/covers', publicPath: './covers/' }),
            alt: fields.text({
              label: 'What the picture shows',
              description: 'Read aloud to people who cannot see it.',
            }),
          },
          { label: 'Cover', description: 'Optional: a picture at the top of the post, and in lists.' },
        ),
        content: body,
      },
    }),
    pages: collection({
      label: 'Footer pages',
      path: 'src/content/pages/*',
      slugField: 'title',
      format: { contentField: 'content' },
      entryLayout: 'content',
      columns: ['title', 'updatedDate'],
      previewUrl: '/{slug}',
      schema: {
        title: fields.slug({
          name: { label: 'Title', validation: required },
          slug: {
            label: 'Address',
            description: 'The page’s address, /<address>: the footer links to it, so keep it.',
          },
        }),
        description,
        updatedDate: fields.date({
          label: 'Updated on',
          description: 'Shown on the page.',
          validation: { isRequired: true },
        }),
        content: body,
      },
    }),
  },
  singletons: {
    portfolio: singleton({
      label: 'Portfolio',
      path: 'src/content/portfolio/alex-morgan',
      format: { data: 'json' },
      previewUrl: '/myportfolio',
      schema: {
        name: text('Name'),
        role: text('Role'),
        email: fields.text({
          label: 'Email',
          validation: {
            isRequired: true,
            length: { min: 1 },
            pattern: { regex: z.regexes.email, message: 'An email address' },
          },
        }),
        location: text('Location'),
        summary: fields.text({ label: 'Summary', multiline: true, validation: required }),
        education: fields.array(
          fields.object({ degree: text('Degree'), school: text('School'), years: text('Years') }),
          {
            label: 'Education',
            itemLabel: (props) => props.fields.degree.value,
            validation: { length: { min: 1 } },
          },
        ),
        skills: fields.array(text('Skill'), {
          label: 'Skills',
          itemLabel: (props) => props.value,
          validation: { length: { min: 1 } },
        }),
        projects: fields.array(
          fields.object({
            name: text('Name'),
            description: text('Description'),
            url: webAddress('Address'),
          }),
          {
            label: 'Projects (three)',
            itemLabel: (props) => props.fields.name.value,
            validation: { length: { min: 3, max: 3 } },
          },
        ),
        links: fields.array(fields.object({ label: text('Label'), url: webAddress('Address') }), {
          label: 'Links',
          itemLabel: (props) => props.fields.label.value,
          validation: { length: { min: 1 } },
        }),
      },
    }),
  },
});
