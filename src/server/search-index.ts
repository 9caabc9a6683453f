// The live search index: built from the catalogue in memory when it is asked for and the catalogue's
// names or descriptions changed, never at build time, so a tool added after the build is findable on
// the next request (and the build's time does not grow with it). The catalogue list it reads is
// dropped on every 'tools' change announced on the bus, by this server or another, so every server
// serves the same index within the store's freshness window. Served compressed, with an ETag.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Tool } from '../lib/entities.ts';
import { searchEntry, type SearchIndex } from '../lib/search.ts';

const br = promisify(brotliCompress);
const gz = promisify(gzip);

export interface SearchIndexFile {
  etag: string;
  json: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Everything the index depends on (not stock or price): a change elsewhere keeps the built file. */
function fingerprint(tools: readonly Tool[]): string {
  const hash = createHash('sha256');
  for (const t of tools) hash.update(`${t._id}\u0000${t.name}\u0000${t.description}\u0001`);
  return hash.digest('base64url');
}

export async function buildSearchIndex(tools: readonly Tool[]): Promise<SearchIndexFile> {
  const index: SearchIndex = { tools: tools.map(searchEntry) };
  const json = Buffer.from(JSON.stringify(index));
  // Quality 5: built at run time on a change, so fast matters more than the last few percent.
  const params = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: json.length };
  const [brotli, gzipped] = await Promise.all([br(json, { params }), gz(json, { level: 6 })]);
  return { etag: `"${fingerprint(tools)}"`, json, br: brotli, gzip: gzipped };
}

/** Keeps the last index built; rebuilds only when the catalogue list is new and its text differs. */
export function liveSearchIndex(list: () => Promise<readonly Tool[]>) {
  let seen: readonly Tool[] | undefined;
  let built: Promise<SearchIndexFile> | undefined;
  let builtFor = '';
  return async function current(): Promise<SearchIndexFile> {
    const tools = await list();
    if (tools !== seen || !built) {
      seen = tools;
      const print = fingerprint(tools);
      if (print !== builtFor || !built) {
        builtFor = print;
        built = buildSearchIndex(tools);
        built.catch(() => {
          if (builtFor === print) built = undefined;
        });
      }
    }
    return built;
  };
}

/** The index as a response: brotli or gzip when the browser takes it, 304 when it has this one. */
export function searchIndexResponse(file: SearchIndexFile, request: Request): Response {
  const headers = new Headers({
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-cache',
    ETag: file.etag,
    Vary: 'Accept-Encoding',
  });
  const match = request.headers.get('if-none-match');
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
    return new Response(null, { status: 304, headers });
  }
  const accepts = request.headers.get('accept-encoding') ?? '';
  let body = file.json;
  if (/\bbr\b/.test(accepts)) {
    body = file.br;
    headers.set('Content-Encoding', 'br');
  } else if (/\bgzip\b/.test(accepts)) {
    body = file.gzip;
    headers.set('Content-Encoding', 'gzip');
  }
  headers.set('Content-Length', String(body.length));
  return new Response(new Uint8Array(body), { status: 200, headers });
}
