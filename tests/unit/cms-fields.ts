// Compares the content editor's fields (keystatic.config.ts) with a content schema (src/content/schemas.ts)
// the way each one reads a file: the same field names at every level, and for every field and every probe
// value, the same verdict (Keystatic's field options live in closures, so they are compared by behaviour).
// Used by cms-config.test.ts, on the real pair and on copies with one side changed.
import type { ComponentSchema } from '@keystatic/core';
import type { z } from 'zod';

type Schema = z.ZodType;
type Fields = Record<string, ComponentSchema>;
type Path = (string | number)[];
type Entry = Record<string, unknown>;
type Stored = Parameters<Extract<ComponentSchema, { kind: 'form' }>['reader']['parse']>[0];

interface Def {
  type: string;
  innerType?: Schema;
  out?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
}
const def = (schema: Schema) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object, array or value under `.optional()`, `.default()` and `z.preprocess()`. */
function unwrap(schema: Schema): Schema {
  const d = def(schema);
  if (d.type === 'optional' || d.type === 'default') return unwrap(d.innerType!);
  if (d.type === 'pipe') return unwrap(d.out!);
  return schema;
}

/** Every field's path in a schema, an array's items as `[]`: `cover.src`, `projects.[].url`. */
export function schemaNames(schema: Schema, prefix = ''): string[] {
  const d = def(unwrap(schema));
  if (d.type === 'object')
    return Object.entries(d.shape!).flatMap(([k, v]) => [prefix + k, ...schemaNames(v, `${prefix}${k}.`)]);
  if (d.type === 'array') return schemaNames(d.element!, `${prefix}[].`);
  return [];
}

/** The same for the editor's fields. The Markdown body (a content field) is not frontmatter: left out. */
export function editorNames(field: ComponentSchema, prefix = ''): string[] {
  if (field.kind === 'object')
    return Object.entries(field.fields)
      .filter(([, f]) => !(f.kind === 'form' && f.formKind === 'content'))
      .flatMap(([k, f]) => [prefix + k, ...editorNames(f, `${prefix}${k}.`)]);
  if (field.kind === 'array') return editorNames(field.element, `${prefix}[].`);
  return [];
}

interface SlugReader {
  parseWithSlug(value: unknown, args: { slug: string; glob: '*' }): unknown;
}

/**
 * Whether the editor opens and saves this value: Keystatic's own reader (parse, then validate), field by
 * field. The collection's slug field (the title) is read with the file's name, as Keystatic does.
 */
function editorReads(field: ComponentSchema, value: unknown, slugField?: string): void {
  if (field.kind === 'object') {
    if (value !== undefined && (value === null || typeof value !== 'object')) throw new Error('not an object');
    for (const [key, f] of Object.entries(field.fields)) {
      const v = (value as Entry | undefined)?.[key];
      if (key === slugField)
        (f as unknown as { reader: SlugReader }).reader.parseWithSlug(v, { slug: 'a-post', glob: '*' });
      else editorReads(f, v);
    }
  } else if (field.kind === 'array') {
    const items = value ?? [];
    if (!Array.isArray(items)) throw new Error('not a list');
    const { min = 0, max = Infinity } = field.validation?.length ?? {};
    if (items.length < min || items.length > max) throw new Error('length');
    for (const item of items) editorReads(field.element, item);
  } else if (field.kind === 'form') {
    if (field.formKind !== 'content') field.reader.parse(value as Stored);
  } else throw new Error(`no probe for ${field.kind} fields`);
}

const long = (n: number) => 'a'.repeat(n);
/** What a file may hold in a field of each type: the edges of every limit the schemas use. */
const PROBES: Record<string, unknown[]> = {
  string: [
    undefined,
    '',
    'x',
    long(300),
    long(301),
    'Two Words',
    'two-words',
    'a@b.example',
    'https://example.com/a',
    'javascript:alert(1)',
    'not a url',
  ],
  number: [undefined, -1, 0, 3, 1.5],
  boolean: [undefined, true, false],
  date: [undefined, '2026-11-25', new Date('2026-11-25'), 'someday'],
};

/** Every field's path in `base`'s shape with its schema type; an array's items by its first index. */
function leaves(schema: Schema, path: Path = []): { path: Path; type: string; list: boolean }[] {
  const d = def(unwrap(schema));
  if (d.type === 'object') return Object.entries(d.shape!).flatMap(([k, v]) => leaves(v, [...path, k]));
  if (d.type === 'array') return [{ path, type: 'array', list: true }, ...leaves(d.element!, [...path, 0])];
  return [{ path, type: d.type, list: false }];
}

function withValue(base: Entry, path: Path, value: unknown): Entry {
  const copy = structuredClone(base);
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

const show = (v: unknown) =>
  v instanceof Date
    ? `Date(${v.toISOString().slice(0, 10)})`
    : typeof v === 'string' && v.length > 40
      ? `"a"×${v.length}`
      : (JSON.stringify(v) ?? 'missing');

/**
 * Where the two disagree, one line each: a field only one side has, or a value of a field one side accepts
 * and the other refuses. `base` is a complete entry both accept, every list in it holding at least one item;
 * `slugField` is the collection's (its value is also the file's name).
 */
export function differences(schema: Schema, editor: Fields, base: Entry, slugField?: string): string[] {
  const root: ComponentSchema = { kind: 'object', fields: editor } as ComponentSchema;
  const ours = new Set(schemaNames(schema));
  const theirs = new Set(editorNames(root));
  const lines = [
    ...[...ours].filter((n) => !theirs.has(n)).map((n) => `${n}: only in the content schema`),
    ...[...theirs].filter((n) => !ours.has(n)).map((n) => `${n}: only in the editor`),
  ];
  if (lines.length) return lines;
  const verdicts = (entry: Entry) => {
    const editorOk = (() => {
      try {
        editorReads(root, entry, slugField);
        return true;
      } catch {
        return false;
      }
    })();
    return { schemaOk: schema.safeParse(entry).success, editorOk };
  };
  const base0 = verdicts(base);
  if (!base0.schemaOk || !base0.editorOk)
    return [`the base entry is refused (schema ${base0.schemaOk}, editor ${base0.editorOk})`];
  for (const { path, type, list } of leaves(schema)) {
    const name = path.map((p) => (typeof p === 'number' ? '[]' : p)).join('.');
    // A list is probed at lengths 0 to 4, its base items repeated.
    const items = list ? (path.reduce<unknown>((v, k) => (v as Entry)[k], base) as unknown[]) : [];
    const probes = list
      ? [0, 1, 2, 3, 4].map((n) => Array.from({ length: n }, (_, i) => items[i % items.length]))
      : (PROBES[type] ?? []);
    if (!list && !PROBES[type]) lines.push(`${name}: no probes for a ${type}`);
    for (const probe of probes) {
      const { schemaOk, editorOk } = verdicts(withValue(base, path, probe));
      if (schemaOk !== editorOk)
        lines.push(
          `${name} = ${list ? `${(probe as unknown[]).length} items` : show(probe)}: ${schemaOk ? 'the editor refuses' : 'only the editor accepts'}`,
        );
    }
  }
  return lines;
}
