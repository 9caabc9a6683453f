// The header search's Pagefind index: one record per tool (its name and description, url /tools/{id}).
// `npm run build` writes it into dist/client/pagefind (scripts/postbuild.ts); the server builds it again,
// with Pagefind's Node API, when the catalogue's names or descriptions change, and serves /pagefind/* from
// those files (src/pages/pagefind/[...file].ts): the few entry files from memory, the many small chunks from
// one temporary file per index. The catalogue list read here is dropped
// on every 'tools' change announced on the bus, by this server or another, so a tool added after the
// build is found within the store's freshness window on every server, without a rebuild.
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as pagefind from 'pagefind';
import type { Tool } from '../../lib/entities.ts';
import { logger } from '../observability/logger.ts';
import { unnamedFile } from './unnamed-file.ts';

type Indexed = Pick<Tool, '_id' | 'name' | 'description'>;
/** Pagefind's files by their path under /pagefind/. */
export type SearchFiles = ReadonlyMap<string, Uint8Array>;

/** What the search box's code asks for: Pagefind's own UI bundles and playground are left out. */
const WANTED =
  /^(pagefind\.js|pagefind-worker\.js|pagefind-entry\.json|wasm\.[\w-]+\.pagefind|pagefind\.[\w-]+\.pf_meta|(index|fragment|filter)\/[\w-]+\.pf_(index|fragment|filter))$/;
/** Named by their content's hash, so cached for good; the rest is asked again (ETag) on each page load. */
const HASHED = /\.pf_(meta|index|fragment|filter)$/;

const excerptOf = (description: string): string =>
  description.length > 110 ? `${description.slice(0, 107).trimEnd()}…` : description;

const RECORDS_IN_FLIGHT = 64;

/** Builds the index of these tools in memory; the same tools always give the same files. */
export async function buildSearchFiles(tools: readonly Indexed[]): Promise<SearchFiles> {
  const { index, errors } = await pagefind.createIndex();
  if (!index) throw new Error(`Pagefind: ${errors.join('; ')}`);
  try {
    // A few records in flight at a time, not the whole catalogue: 10,000 writes queued at once to
    // Pagefind's process all outlived a young-generation collection, and V8 then allocated objects from
    // the same places in Node's streams straight in the old generation for the rest of the process
    // (allocation-site pretenuring). Every request's objects paid for it: scavenges of 20-40 ms keeping
    // ~60% of what they saw, the old generation growing ~100 MB a second under load (before-after.md).
    const errors: string[] = [];
    for (let i = 0; i < tools.length; i += RECORDS_IN_FLIGHT) {
      const added = await Promise.all(
        tools.slice(i, i + RECORDS_IN_FLIGHT).map((tool) =>
          index.addCustomRecord({
            url: `/tools/${tool._id}`,
            content: `${tool.name}. ${tool.description}`,
            language: 'en',
            meta: { title: tool.name, excerpt: excerptOf(tool.description) },
          }),
        ),
      );
      errors.push(...added.flatMap((a) => a.errors));
    }
    const { files, errors: failed } = await index.getFiles();
    const problems = [...errors, ...failed];
    if (problems.length) throw new Error(`Pagefind: ${problems.join('; ')}`);
    return new Map(files.filter((f) => WANTED.test(f.path)).map((f) => [f.path, f.content]));
  } finally {
    await index.deleteIndex();
  }
}

/** Writes the files into `dir` (the build's client/pagefind), replacing what was there. */
export async function writeSearchFiles(files: SearchFiles, dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  const entries = [...files];
  for (const sub of new Set(entries.map(([name]) => path.dirname(name))))
    await mkdir(path.join(dir, sub), { recursive: true });
  // A few at a time: 10,000 tools are 10,000 fragment files.
  for (let i = 0; i < entries.length; i += 64)
    await Promise.all(entries.slice(i, i + 64).map(([name, data]) => writeFile(path.join(dir, name), data)));
}

export interface SearchFile {
  body: Uint8Array;
  type: string;
  etag: string;
  cacheControl: string;
  /** Pagefind's scripts only: its index files are compressed already. */
  br?: Uint8Array;
  gzip?: Uint8Array;
}

/**
 * One built index. Its few entry files (scripts, the entry JSON, the WebAssembly) are kept ready to serve.
 * The hashed chunks, one per tool and more (10,046 files at 10,000 tools, 3.4 MB), are packed in one file
 * and read from it when asked for (a browser caches each for good). Kept in memory as objects (a body, an
 * ETag string, headers) they held ~7 MiB of a store's memory at 10,000 tools (before-after.md).
 */
interface SearchBundle {
  entries: ReadonlyMap<string, SearchFile>;
  /** A hashed chunk's name → its number; its body is bytes starts[n] to starts[n + 1] of `packed`. */
  chunks: ReadonlyMap<string, number>;
  packed: Packed;
  starts: Uint32Array;
}
/** A file of this process alone, with no name (see unnamedFile), or memory when none could be made. */
type Packed = { file: FileHandle } | { bytes: Buffer };

async function pack(bytes: Buffer): Promise<Packed> {
  let file: FileHandle | undefined;
  try {
    file = await unnamedFile();
    await file.writeFile(bytes);
    return { file };
  } catch (error) {
    await file?.close().catch(() => {});
    logger.warn({ err: error }, 'search index chunks kept in memory: no temporary file could be written');
    return { bytes };
  }
}

/** Closes the file of an index no longer served (a read under way finishes first). */
const release = (bundle: SearchBundle) => void ('file' in bundle.packed && bundle.packed.file.close().catch(() => {}));

const br = promisify(brotliCompress);
const gz = promisify(gzip);
/** Pagefind's scripts are the same in every index: compressed once per process. */
const compressed = new Map<string, Promise<{ br: Uint8Array; gzip: Uint8Array }>>();

const etagOf = (body: Uint8Array) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

async function servedFile(name: string, body: Uint8Array): Promise<SearchFile> {
  const etag = etagOf(body);
  const script = name.endsWith('.js');
  const file: SearchFile = {
    body,
    etag,
    type: script
      ? 'text/javascript; charset=utf-8'
      : name.endsWith('.json')
        ? 'application/json; charset=utf-8'
        : 'application/octet-stream',
    cacheControl: HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (!script) return file;
  let variants = compressed.get(etag);
  if (!variants) {
    const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
    variants = Promise.all([br(body, { params }), gz(body, { level: 9 })]).then(([b, g]) => ({ br: b, gzip: g }));
    compressed.set(etag, variants);
  }
  return { ...file, ...(await variants) };
}

/** A hashed chunk as served, read from the packed file on each request. */
async function chunkOf(bundle: SearchBundle, name: string): Promise<SearchFile | undefined> {
  const n = bundle.chunks.get(name);
  if (n === undefined) return undefined;
  const [start, end] = [bundle.starts[n], bundle.starts[n + 1]];
  let body: Uint8Array;
  if ('bytes' in bundle.packed) body = bundle.packed.bytes.subarray(start, end);
  else {
    body = Buffer.alloc(end - start);
    // Fails only for an index no longer served (released since this request took it): then not found.
    const read = await bundle.packed.file.read(body, 0, body.length, start).catch(() => undefined);
    if (read?.bytesRead !== body.length) return undefined;
  }
  return {
    body,
    etag: etagOf(body),
    type: 'application/octet-stream',
    cacheControl: 'public, max-age=31536000, immutable',
  };
}

const find = async (bundle: SearchBundle, name: string) => bundle.entries.get(name) ?? chunkOf(bundle, name);

/** Everything the index depends on (not stock or price): a change elsewhere keeps the built files. */
function fingerprint(tools: readonly Indexed[]): string {
  const hash = createHash('sha256');
  for (const t of tools) hash.update(`${t._id}\u0000${t.name}\u0000${t.description}\u0001`);
  return hash.digest('base64url');
}

async function buildBundle(tools: readonly Indexed[]): Promise<SearchBundle> {
  const started = performance.now();
  const files = [...(await buildSearchFiles(tools))];
  const hashed = files.filter(([name]) => HASHED.test(name));
  const entries = new Map(
    await Promise.all(
      files
        .filter(([name]) => !HASHED.test(name))
        .map(async ([name, body]) => [name, await servedFile(name, body)] as const),
    ),
  );
  const starts = new Uint32Array(hashed.length + 1);
  hashed.forEach(([, body], n) => (starts[n + 1] = starts[n] + body.length));
  const bundle: SearchBundle = {
    entries,
    chunks: new Map(hashed.map(([name], n) => [name, n])),
    packed: await pack(Buffer.concat(hashed.map(([, body]) => body))),
    starts,
  };
  logger.info(
    { tools: tools.length, files: files.length, ms: Math.round(performance.now() - started) },
    'search index built',
  );
  return bundle;
}

/** How long a search waits for an index of a newer catalogue before the last one answers. */
const WAIT_FOR_NEW_INDEX_MS = 3000;

/**
 * The served index, kept between requests: rebuilt when the catalogue list is new and its text differs.
 * `refresh` starts a rebuild at once (runtime.ts calls it on every 'tools' change announced on the bus, by
 * this server or another), so a tool added anywhere is in every server's index about a second later.
 * A search that arrives while a newer index builds waits for it, up to WAIT_FOR_NEW_INDEX_MS (a build
 * takes about a second for a small catalogue, a few at 10,000 tools), then the last index answers; the
 * one before it stays served too, so a browser that read an older entry file can still fetch that
 * index's (hashed) chunks.
 */
export function liveSearchIndex(list: () => Promise<readonly Indexed[]>, waitMs = WAIT_FOR_NEW_INDEX_MS) {
  let seen: readonly Indexed[] | undefined;
  let built: Promise<SearchBundle> | undefined;
  let builtFor = '';
  let building = false;
  let latest: SearchBundle | undefined;
  let previous: SearchBundle | undefined;
  let closed = false;
  async function current(): Promise<SearchBundle> {
    const tools = await list();
    if (tools !== seen || !built) {
      seen = tools;
      const print = fingerprint(tools);
      if (print !== builtFor || !built) {
        builtFor = print;
        building = true;
        const next = buildBundle(tools);
        built = next;
        next.then(
          (bundle) => {
            if (built !== next || closed) return release(bundle); // a newer build took over, or closed
            building = false;
            if (previous) release(previous);
            previous = latest;
            latest = bundle;
          },
          (error: Error) => {
            logger.error({ err: error }, 'search index build failed');
            if (built !== next) return;
            building = false;
            built = undefined;
          },
        );
      }
    }
    if (!building || !latest) return built!;
    const last = latest;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<SearchBundle>((resolve) => (timer = setTimeout(() => resolve(last), waitMs)));
    return Promise.race([built!.catch(() => last), waited]).finally(() => clearTimeout(timer));
  }
  return {
    /** The file at this path under /pagefind/, or undefined when no index served has it. */
    async find(name: string): Promise<SearchFile | undefined> {
      const bundle = await current();
      return (await find(bundle, name)) ?? (previous && find(previous, name));
    },
    /** Builds the index of the catalogue as it is now, if its text changed; resolves when it is served. */
    async refresh(): Promise<void> {
      await current().catch(() => {});
    },
    /** Closes the files of the indexes served (the runtime's close): a build still running closes its own. */
    close(): void {
      closed = true;
      for (const bundle of [latest, previous]) if (bundle) release(bundle);
      latest = previous = undefined;
    },
  };
}
export type LiveSearchIndex = ReturnType<typeof liveSearchIndex>;

/** A file as a response: brotli or gzip for the scripts when the browser takes it, 304 when it has this one. */
export function searchFileResponse(file: SearchFile | undefined, request: Request): Response {
  if (!file) return new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  const headers = new Headers({ 'Content-Type': file.type, 'Cache-Control': file.cacheControl, ETag: file.etag });
  if (file.br) headers.set('Vary', 'Accept-Encoding');
  const match = request.headers.get('if-none-match');
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
    return new Response(null, { status: 304, headers });
  }
  const accepts = request.headers.get('accept-encoding') ?? '';
  let body = file.body;
  if (file.br && /\bbr\b/.test(accepts)) {
    body = file.br;
    headers.set('Content-Encoding', 'br');
  } else if (file.gzip && /\bgzip\b/.test(accepts)) {
    body = file.gzip;
    headers.set('Content-Encoding', 'gzip');
  }
  headers.set('Content-Length', String(body.length));
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}
