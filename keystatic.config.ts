// The content editor (Keystatic, opened by `npm run edit`): forms over the Markdown and JSON files in
// src/content/, written back to the same files, so Git stays the source of truth. Its fields mirror
// src/content/schemas.ts field for field; tests/unit/cms-config.test.ts fails when the two differ.
// Only the dev server loads it (astro.config.mjs adds the integration under `npm run edit`): the
// production build has no CMS route.
import { collection, config, fields, singleton } from '@keystatic/core';

const TAG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const description = fields.text({
  label: 'Description',
  description: 'One or two sentences for lists, search engines and link previews (at most 300 characters).',
  multiline: true,
  validation: { isRequired: true, length: { min: 1, max: 300 } },
});

export default config({
  storage: { kind: 'local' },
  ui: {
    brand: { name: 'Ironcrest Tools' },
    navigation: { Blog: ['blogs'], 'Footer pages': ['pages'], Portfolio: ['portfolio'] },
  },
  collections: {
    blogs: collection({
      label: 'Blog posts',
      path: 'src/content/blogs/*',
      slugField: 'title',
      format: { contentField: 'content' },
      entryLayout: 'content',
      columns: ['title', 'pubDate', 'draft'],
      previewUrl: '/blogs/{slug}',
      schema: {
        title: fields.slug({
          name: { label: 'Title', validation: { isRequired: true, length: { min: 1 } } },
          slug: { label: 'Address', description: 'The end of the post’s address: /blogs/<address>.' },
        }),
        description,
        author: fields.text({ label: 'Author', validation: { isRequired: true, length: { min: 1 } } }),
        pubDate: fields.date({ label: 'Published on', validation: { isRequired: true } }),
        updatedDate: fields.date({ label: 'Updated on', description: 'Only when the post changed in substance.' }),
        order: fields.integer({
          label: 'Position on /blogs',
          description: 'Ascending; no two posts may share one.',
          validation: { isRequired: true, min: 0 },
        }),
        draft: fields.checkbox({
          label: 'Draft',
          description: 'A draft shows only in the editor’s preview, never on the live store.',
          defaultValue: true,
        }),
        tags: fields.array(
          fields.text({
            label: 'Tag',
            validation: { isRequired: true, pattern: { regex: TAG, message: 'Lower-case words joined by dashes' } },
          }),
          { label: 'Tags', itemLabel: (props) => props.value },
        ),
        cover: fields.object(
          {
            src: fields.image({
              label: 'Cover image',
              directory: 'src/content/blogs/covers',
              publicPath: './covers/',
            }),
            alt: fields.text({ label: 'What the image shows', description: 'Read aloud to people who cannot see it.' }),
          },
          { label: 'Cover' },
        ),
        content: fields.mdx({ label: 'Text', extension: 'md' }),
      },
    }),
    pages: collection({
      label: 'Footer pages',
      path: 'src/content/pages/*',
      slugField: 'title',
      format: { contentField: 'content' },
      entryLayout: 'content',
      previewUrl: '/{slug}',
      schema: {
        title: fields.slug({
          name: { label: 'Title', validation: { isRequired: true, length: { min: 1 } } },
          slug: { label: 'Address', description: 'The page’s address, /<address>; the footer links to it.' },
        }),
        description,
        updatedDate: fields.date({ label: 'Updated on', validation: { isRequired: true } }),
        content: fields.mdx({ label: 'Text', extension: 'md' }),
      },
    }),
  },
  singletons: {
    portfolio: singleton({
      label: 'Portfolio',
      path: 'src/content/portfolio/alex-morgan',
      format: { data: 'json' },
      schema: {
        name: fields.text({ label: 'Name', validation: { isRequired: true, length: { min: 1 } } }),
        role: fields.text({ label: 'Role', validation: { isRequired: true, length: { min: 1 } } }),
        email: fields.text({ label: 'Email', validation: { isRequired: true, length: { min: 1 } } }),
        location: fields.text({ label: 'Location', validation: { isRequired: true, length: { min: 1 } } }),
        summary: fields.text({ label: 'Summary', multiline: true, validation: { isRequired: true, length: { min: 1 } } }),
        education: fields.array(
          fields.object({
            degree: fields.text({ label: 'Degree', validation: { isRequired: true, length: { min: 1 } } }),
            school: fields.text({ label: 'School', validation: { isRequired: true, length: { min: 1 } } }),
            years: fields.text({ label: 'Years', validation: { isRequired: true, length: { min: 1 } } }),
          }),
          { label: 'Education', itemLabel: (props) => props.fields.degree.value, validation: { length: { min: 1 } } },
        ),
        skills: fields.array(fields.text({ label: 'Skill', validation: { isRequired: true, length: { min: 1 } } }), {
          label: 'Skills',
          itemLabel: (props) => props.value,
          validation: { length: { min: 1 } },
        }),
        projects: fields.array(
          fields.object({
            name: fields.text({ label: 'Name', validation: { isRequired: true, length: { min: 1 } } }),
            description: fields.text({ label: 'Description', validation: { isRequired: true, length: { min: 1 } } }),
            url: fields.url({ label: 'Address', validation: { isRequired: true } }),
          }),
          { label: 'Projects (three)', itemLabel: (props) => props.fields.name.value, validation: { length: { min: 3, max: 3 } } },
        ),
        links: fields.array(
          fields.object({
            label: fields.text({ label: 'Label', validation: { isRequired: true, length: { min: 1 } } }),
            url: fields.url({ label: 'Address', validation: { isRequired: true } }),
          }),
          { label: 'Links', itemLabel: (props) => props.fields.label.value, validation: { length: { min: 1 } } },
        ),
      },
    }),
  },
});
