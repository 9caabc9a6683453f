// Checks every content file before it is published: the frontmatter against the collections' schemas
// (src/content/schemas.ts), internal links and images that lead nowhere, and two posts with one `order`.
// One line per problem: `file:line field: what is wrong`. Used by `npm run content:check` (and so by
// `npm test`) and by every build (astro.config.mjs), which stops before writing anything.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { blogSchema, pageSchema, portfolioSchema } from '../../src/content/schemas.ts';

export interface Problem {
  file: string;
  line: number;
  field: string;
  message: string;
}

export const formatProblem = (p: Problem): string => `${p.file}:${p.line} ${p.field}: ${p.message}`;

interface Parsed {
  file: string;
  data: Record<string, unknown>;
  /** Line (1-based) of each top-level frontmatter key. */
  lines: Map<string, number>;
  body: string;
  /** Line of the body's first line in the file. */
  bodyLine: number;
}

const list = (dir: string, ext: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(ext))
        .sort()
        .map((f) => path.join(dir, f))
    : [];

function parseMarkdown(root: string, file: string, problems: Problem[]): Parsed | undefined {
  const rel = path.relative(root, file);
  const text = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
  if (!match) {
    problems.push({
      file: rel,
      line: 1,
      field: 'frontmatter',
      message: 'the file must start with frontmatter between two --- lines',
    });
    return undefined;
  }
  const doc = parseDocument(match[1]);
  if (doc.errors.length) {
    for (const error of doc.errors)
      problems.push({
        file: rel,
        line: (error.linePos?.[0].line ?? 0) + 1,
        field: 'frontmatter',
        message: error.message.split('\n')[0],
      });
    return undefined;
  }
  const data = (doc.toJS() ?? {}) as Record<string, unknown>;
  const lines = new Map<string, number>();
  match[1].split('\n').forEach((line, i) => {
    const key = /^([A-Za-z_][\w-]*)\s*:/.exec(line)?.[1];
    if (key && !lines.has(key)) lines.set(key, i + 2);
  });
  return { file: rel, data, lines, body: text.slice(match[0].length), bodyLine: match[0].split('\n').length };
}

function validate(parsed: Parsed, schema: z.ZodType, problems: Problem[]): Record<string, unknown> | undefined {
  const result = schema.safeParse(parsed.data);
  if (result.success) return result.data as Record<string, unknown>;
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : 'frontmatter';
    const top = String(issue.path[0] ?? '');
    let value: unknown = parsed.data;
    for (const key of issue.path)
      value = value === null || typeof value !== 'object' ? undefined : (value as Record<PropertyKey, unknown>)[key];
    const missing = value === undefined;
    problems.push({
      file: parsed.file,
      line: parsed.lines.get(top) ?? 1,
      field,
      message: missing ? 'missing' : issue.message,
    });
  }
  return undefined;
}

/** The site's paths a link may lead to: the prebuilt and on-request pages, the posts, tags and footer pages. */
function knownPaths(root: string, posts: Parsed[], pages: Parsed[]): { exact: Set<string>; prefixes: string[] } {
  const exact = new Set<string>(['/']);
  const walk = (dir: string, base: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        if (!entry.startsWith('[')) walk(full, `${base}/${entry}`);
        continue;
      }
      const name = entry.replace(/\.(astro|ts|md)$/, '');
      if (name.includes('[') || name === entry) continue;
      exact.add(name === 'index' ? base || '/' : `${base}/${name}`);
    }
  };
  walk(path.join(root, 'src/pages'), '');
  for (const post of posts) exact.add(`/blogs/${path.basename(post.file, '.md')}`);
  for (const post of posts)
    for (const tag of Array.isArray(post.data.tags) ? post.data.tags : []) exact.add(`/blogs/tags/${String(tag)}`);
  for (const page of pages) exact.add(`/${path.basename(page.file, '.md')}`);
  // Pages made from the store's data, whatever their id.
  return { exact, prefixes: ['/tools/', '/dashboard/', '/api/', '/images/'] };
}

/** Links and images in a body: `[text](target)` and `![alt](target)`, with their line. */
function* targets(parsed: Parsed): Generator<{ image: boolean; target: string; line: number }> {
  const lines = parsed.body.split('\n');
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) fenced = !fenced;
    if (fenced) continue;
    for (const m of lines[i].matchAll(/(!?)\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      yield { image: m[1] === '!', target: m[2], line: parsed.bodyLine + i };
  }
}

function checkTargets(root: string, parsed: Parsed, known: ReturnType<typeof knownPaths>, problems: Problem[]) {
  for (const { image, target, line } of targets(parsed)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('#')) continue;
    const clean = decodeURI(target.split(/[?#]/)[0]);
    if (image) {
      const file = clean.startsWith('/')
        ? path.join(root, 'public', clean)
        : path.resolve(path.dirname(path.join(root, parsed.file)), clean);
      if (!existsSync(file))
        problems.push({ file: parsed.file, line, field: 'image', message: `${target} does not exist` });
      continue;
    }
    if (!clean.startsWith('/')) {
      problems.push({
        file: parsed.file,
        line,
        field: 'link',
        message: `${target}: write internal links from the site's root (/blogs/…)`,
      });
      continue;
    }
    const pathOnly = clean.length > 1 ? clean.replace(/\/+$/, '') : clean;
    const ok =
      known.exact.has(pathOnly) ||
      known.prefixes.some((p) => pathOnly.startsWith(p)) ||
      existsSync(path.join(root, 'public', pathOnly));
    if (!ok) problems.push({ file: parsed.file, line, field: 'link', message: `${target} leads to no page` });
  }
}

/** Every problem in the content under `root` (the project), in file order. */
export function checkContent(root: string): Problem[] {
  const problems: Problem[] = [];
  const posts = list(path.join(root, 'src/content/blogs'), '.md')
    .map((f) => parseMarkdown(root, f, problems))
    .filter((p): p is Parsed => p !== undefined);
  const pages = list(path.join(root, 'src/content/pages'), '.md')
    .map((f) => parseMarkdown(root, f, problems))
    .filter((p): p is Parsed => p !== undefined);
  const orders = new Map<number, string>();
  for (const post of posts) {
    const data = validate(post, blogSchema(), problems);
    if (!data) continue;
    const cover = data.cover as { src: string } | undefined;
    if (cover && !existsSync(path.resolve(path.dirname(path.join(root, post.file)), cover.src)))
      problems.push({
        file: post.file,
        line: post.lines.get('cover') ?? 1,
        field: 'cover.src',
        message: `${cover.src} does not exist`,
      });
    const order = data.order as number;
    const other = orders.get(order);
    if (other)
      problems.push({
        file: post.file,
        line: post.lines.get('order') ?? 1,
        field: 'order',
        message: `${order} is also the order of ${other}`,
      });
    else orders.set(order, post.file);
  }
  for (const page of pages) validate(page, pageSchema, problems);
  for (const file of list(path.join(root, 'src/content/portfolio'), '.json')) {
    const rel = path.relative(root, file);
    try {
      const result = portfolioSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!result.success)
        for (const issue of result.error.issues)
          problems.push({ file: rel, line: 1, field: issue.path.join('.') || 'portfolio', message: issue.message });
    } catch (error) {
      problems.push({ file: rel, line: 1, field: 'json', message: (error as Error).message });
    }
  }
  const known = knownPaths(root, posts, pages);
  for (const parsed of [...posts, ...pages]) checkTargets(root, parsed, known, problems);
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/**
 * The same check as an Astro integration: `astro build` stops before writing anything when the content
 * has a problem, with the same lines (`astro dev` shows drafts and reports schema errors itself).
 */
export function contentCheckIntegration(root = process.cwd()) {
  return {
    name: 'ironcrest:content-check',
    hooks: {
      'astro:config:setup': ({ command }: { command: string }) => {
        if (command !== 'build') return;
        const problems = checkContent(root);
        if (problems.length)
          throw new Error(`The content has ${problems.length} problem(s):\n${problems.map(formatProblem).join('\n')}`);
      },
    },
  };
}
