// The static module graph of src/, for the checks on its shape (import-boundaries.test.ts,
// no-barrels.test.ts). Sources are parsed with TypeScript's own parser, so comments and strings never
// read as imports. An .astro file contributes its frontmatter and its <script> blocks.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SRC = 'src';
const CODE = /\.(ts|tsx|mts|mjs|js|astro)$/;
const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.astro', '.mjs', '.js', '.mts'];

export type ImportKind = 'static' | 'type' | 'dynamic' | 're-export';

export interface ImportEdge {
  from: string;
  /** As written. */
  specifier: string;
  /** The file it names, relative to the repo root (forward slashes); undefined for packages. */
  to?: string;
  kind: ImportKind;
  line: number;
}

export interface ReExport {
  file: string;
  line: number;
  text: string;
}

export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : CODE.test(e.name) ? [path.join(dir, e.name)] : [],
    )
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

/** The TypeScript code of a source: an .astro file's frontmatter and <script> blocks, in place (line numbers kept). */
export function codeOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.astro')) return text;
  // Everything that is not code is blanked line by line, so a line number still points into the file.
  const keep = new Array<boolean>(text.length).fill(false);
  const mark = (from: number, to: number) => keep.fill(true, from, to);
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (front) mark(front.index + front[0].indexOf(front[1]), front.index + front[0].indexOf(front[1]) + front[1].length);
  for (const m of text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/type\s*=\s*["']application\/(ld\+)?json["']/.test(m[1])) continue;
    const start = m.index + m[0].indexOf('>') + 1;
    mark(start, start + m[2].length);
  }
  return [...text].map((ch, i) => (keep[i] || ch === '\n' ? ch : ' ')).join('');
}

/** A source's syntax tree (TypeScript's own parser: comments and strings are never read as code). */
export const sourceOf = (file: string, code: string) =>
  ts.createSourceFile(
    file,
    code,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const bare = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier.replace(/\?.*$/, '')));
  const candidates = [
    bare,
    ...RESOLVE_EXTENSIONS.map((ext) => bare + ext),
    ...RESOLVE_EXTENSIONS.map((ext) => `${bare}/index${ext}`),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

interface Parsed {
  imports: ImportEdge[];
  reExports: ReExport[];
}

const cache = new Map<string, Parsed>();

export function parse(file: string): Parsed {
  const hit = cache.get(file);
  if (hit) return hit;
  const source = sourceOf(file, codeOf(file));
  const imports: ImportEdge[] = [];
  const reExports: ReExport[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const add = (node: ts.Node, specifier: string, kind: ImportKind) =>
    imports.push({ from: file, specifier, to: resolve(file, specifier), kind, line: lineOf(node) });

  // Names this file imports: exporting one of them (`export { X }`) re-exports it.
  const imported = new Set<string>();
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause) continue;
    const { name, namedBindings } = st.importClause;
    if (name) imported.add(name.text);
    if (namedBindings && ts.isNamespaceImport(namedBindings)) imported.add(namedBindings.name.text);
    if (namedBindings && ts.isNamedImports(namedBindings))
      for (const e of namedBindings.elements) imported.add(e.name.text);
  }

  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.importClause?.isTypeOnly ||
        Boolean(
          node.importClause?.namedBindings &&
          ts.isNamedImports(node.importClause.namedBindings) &&
          !node.importClause.name &&
          node.importClause.namedBindings.elements.length > 0 &&
          node.importClause.namedBindings.elements.every((e) => e.isTypeOnly),
        );
      add(node, node.moduleSpecifier.text, typeOnly ? 'type' : 'static');
    } else if (ts.isExportDeclaration(node)) {
      // `export { x } from`, `export * from`, and `export { x }` / `export type { X }` of an imported name.
      const fromModule = node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier);
      if (fromModule) add(node, (node.moduleSpecifier as ts.StringLiteral).text, 're-export');
      const passesOn =
        fromModule ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.some((e) => imported.has((e.propertyName ?? e.name).text)));
      if (passesOn) reExports.push({ file, line: lineOf(node), text: node.getText(source).replace(/\s+/g, ' ') });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) add(node, expr.text, 'static');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(node, arg.text, 'dynamic');
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node, node.argument.literal.text, 'type');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const parsed = { imports, reExports };
  cache.set(file, parsed);
  return parsed;
}

/** Every import edge between files of src/ (packages and virtual modules left out). */
export function graph(files = sourceFiles()): ImportEdge[] {
  return files.flatMap((f) => parse(f).imports.filter((e) => e.to !== undefined));
}

/**
 * One cycle per strongly connected group of files (Tarjan), each as a path that starts and ends at
 * the same file, following the edges in `edges`.
 */
export function cycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!CODE.test(e.to!)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to!]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const strong = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (next.get(v) ?? []).includes(v)) groups.push(group);
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) strong(v);

  // A readable path through each group: breadth-first from its first file back to itself.
  return groups.map((group) => {
    const members = new Set(group);
    const start = [...group].sort()[0];
    const from = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of next.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const pathBack = [v];
          while (pathBack[0] !== start) pathBack.unshift(from.get(pathBack[0])!);
          return [...pathBack, start];
        }
        if (!from.has(w)) {
          from.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start, start];
  });
}
