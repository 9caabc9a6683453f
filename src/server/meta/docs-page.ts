// /api/docs: the OpenAPI document as a page to read, rendered here once, with no script at all and one
// inline style sheet allowed by its hash (docsPolicy), so the page needs nothing from another origin
// and its policy stays stricter than the store's own.
import { createHash } from 'node:crypto';
import type { OpenApiDocument } from './openapi.ts';

type Json = Record<string, unknown>;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#1f2329;max-width:64rem;margin:0 auto;padding:1rem}
h1,h2,h3{line-height:1.2}h2{margin-top:2.5rem;border-bottom:2px solid #d9a400;padding-bottom:.25rem;text-transform:capitalize}
article{border:1px solid #d6d9dd;border-radius:6px;padding:.75rem 1rem;margin:1rem 0}
h3{font-size:1rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;margin:0}
h4{margin:.75rem 0 .25rem;font-size:.9rem}dl{display:grid;grid-template-columns:3rem 1fr;gap:.15rem .5rem;margin:0}dd{margin:0}
code{font:13px/1.4 ui-monospace,monospace;overflow-wrap:anywhere}
.m{font:700 12px ui-monospace,monospace;padding:.1rem .4rem;border-radius:4px;background:#2b3137;color:#fff}
.access{font-size:.85rem;color:#5b636b}ul{margin:.2rem 0;padding-left:1.2rem}li{margin:.1rem 0}
.t{color:#5b636b}.d{color:#3b4248}dt{font-weight:600}
nav>ul{columns:14rem}a{color:#0b5cad}p{margin:.4rem 0}`;

/** The page's policy: nothing but its own inline style (by hash) and images from the store. */
export const docsPolicy = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escape = (text: unknown) =>
  String(text).replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

/** Text with `code` spans and **bold**, as the document's descriptions write them; escaped first. */
const prose = (text: unknown) =>
  escape(text ?? '')
    .replace(/`([^`]{1,200})`/g, '<code>$1</code>')
    .replace(/\*\*([^*]{1,200})\*\*/g, '<strong>$1</strong>')
    .split(/\n{2,}/)
    .map((p) => `<p>${p}</p>`)
    .join('');

/** The same, within a line. */
const inline = (text: unknown) =>
  prose(text)
    .replace(/<\/?p>/g, ' ')
    .trim();

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** A schema's type in a few words, with its limits. */
function typeOf(s: Json): string {
  if (typeof s.$ref === 'string') return `<a href="#schema-${escape(refName(s.$ref))}">${escape(refName(s.$ref))}</a>`;
  if (s.const !== undefined) return `<code>${escape(JSON.stringify(s.const))}</code>`;
  if (Array.isArray(s.enum))
    return `one of ${s.enum.map((v) => `<code>${escape(JSON.stringify(v))}</code>`).join(', ')}`;
  const types = (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []) as string[];
  let words = types.filter((t) => t !== 'null').join(' or ') || (s.anyOf || s.oneOf ? '' : 'any');
  if (words === 'array' && s.items) words = `array of ${typeOf(s.items as Json)}`;
  const limits: string[] = [];
  for (const [key, word] of [
    ['minLength', 'at least %s character(s)'],
    ['maxLength', 'at most %s character(s)'],
    ['minimum', '≥ %s'],
    ['exclusiveMinimum', '> %s'],
    ['maximum', '≤ %s'],
    ['minItems', 'at least %s items'],
    ['maxItems', 'at most %s items'],
    ['format', '%s'],
    ['pattern', 'matching <code>%s</code>'],
    ['default', 'default <code>%s</code>'],
  ] as const)
    if (s[key] !== undefined)
      limits.push(
        word
          .replace('%s', escape(key === 'default' ? JSON.stringify(s[key]) : s[key]))
          .replace('(s)', s[key] === 1 ? '' : 's'),
      );
  if (types.includes('null')) limits.push('or null');
  return [words, ...limits].filter(Boolean).join(', ');
}

/** A schema as nested lists: an object's fields, an array's items, the choices of a union. */
function schemaHtml(s: Json | undefined, depth = 0): string {
  if (!s || depth > 8) return '';
  const choices = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (choices) return `<ul>${choices.map((c) => `<li>${typeOf(c)}${schemaHtml(c, depth + 1)}</li>`).join('')}</ul>`;
  if (s.type === 'array' && s.items) return schemaHtml(s.items as Json, depth + 1);
  const properties = s.properties as Record<string, Json> | undefined;
  if (!properties) return '';
  const required = new Set((s.required as string[] | undefined) ?? []);
  const fields = Object.entries(properties).map(
    ([name, field]) =>
      `<li><code>${escape(name)}</code>${required.has(name) ? '' : '?'} <span class="t">${typeOf(field)}</span>${field.description ? ` <span class="d">— ${inline(field.description)}</span>` : ''}${schemaHtml(field, depth + 1)}</li>`,
  );
  return `<ul>${fields.join('')}</ul>`;
}

function operationHtml(method: string, path: string, op: Json): string {
  const parameters = (op.parameters as Json[] | undefined) ?? [];
  const params = (where: string, title: string) => {
    const list = parameters.filter((p) => p.in === where);
    return list.length
      ? `<h4>${title}</h4><ul>${list.map((p) => `<li><code>${escape(p.name)}</code>${p.required ? '' : '?'} <span class="t">${typeOf(p.schema as Json)}</span></li>`).join('')}</ul>`
      : '';
  };
  const body = op.requestBody as { content: Record<string, { schema?: Json }>; required?: boolean } | undefined;
  const bodyHtml = body
    ? Object.entries(body.content)
        .map(
          ([type, media]) =>
            `<h4>Body${body.required ? '' : ' (optional)'}: <code>${escape(type)}</code></h4>${media.schema ? `<span class="t">${typeOf(media.schema)}</span>${schemaHtml(media.schema)}` : ''}`,
        )
        .join('')
    : '';
  const answers = Object.entries(
    op.responses as Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>,
  )
    .map(([status, answer]) => {
      const [type, media] = Object.entries(answer.content ?? {})[0] ?? [];
      const shape = media?.schema
        ? ` <span class="t">${typeOf(media.schema)}</span>${status.startsWith('2') ? schemaHtml(media.schema) : ''}`
        : type
          ? ` <code>${escape(type)}</code>`
          : '';
      return `<dt>${escape(status)}</dt><dd>${inline(answer.description)}${shape}</dd>`;
    })
    .join('');
  const id = escape(op.operationId ?? `${method} ${path}`);
  return `<article id="${id}"><h3><span class="m">${escape(method.toUpperCase())}</span> <code>/api${escape(path)}</code> ${escape(op.summary ?? '')}</h3>
<p class="access"><code>${id}</code>${
    op.security
      ? ` · ${(op.security as Json[])
          .flatMap((s) => Object.keys(s))
          .map(escape)
          .join(', ')}`
      : ''
  }</p>${prose(op.description)}${params('path', 'Path')}${params('query', 'Query')}${bodyHtml}<h4>Answers</h4><dl>${answers}</dl></article>`;
}

export function docsPage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  const contents = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      const tag = ((op.tags as string[] | undefined) ?? ['other'])[0];
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
      contents.set(tag, [
        ...(contents.get(tag) ?? []),
        `<li><a href="#${escape(op.operationId)}">${escape(method.toUpperCase())} ${escape(path)}</a></li>`,
      ]);
    }
  const schemas = Object.entries((document.components?.schemas ?? {}) as Record<string, Json>)
    .map(
      ([name, s]) =>
        `<article id="schema-${escape(name)}"><h3>${escape(name)}</h3>${prose(s.description)}${schemaHtml(s)}</article>`,
    )
    .join('');
  const title = escape(document.info.title);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${STYLE}</style></head><body>
<header><h1>${title} <small class="t">${escape(document.info.version)}</small></h1>${prose(document.info.description)}
<p>The same as OpenAPI 3.1: <a href="/api/openapi.json">/api/openapi.json</a> (for client generators and API tools).</p></header>
<nav aria-label="Calls"><ul>${[...contents].map(([tag, items]) => `<li><a href="#tag-${escape(tag)}">${escape(tag)}</a><ul>${items.join('')}</ul></li>`).join('')}</ul></nav>
<main>${[...byTag].map(([tag, ops]) => `<section id="tag-${escape(tag)}"><h2>${escape(tag)}</h2>${ops.join('')}</section>`).join('')}
<section id="schemas"><h2>Schemas</h2>${schemas}</section></main></body></html>`;
}
