// One spelling per path, settled before any routing (issue 23): a socket can send `/x/../api/contact`,
// `/tools//{id}` or `/a%2Fb`, which fetch would have normalised. Such a path never reaches a router or
// a file lookup that would read it differently from ours: a read is redirected to the canonical form,
// anything else is refused. Every step is one pass over a URL the HTTP parser already bounded.

/** Longest request target we read (Node's parser stops the whole head at 16 kB anyway). */
export const MAX_URL_LENGTH = 8192;

export type Target =
  /** `pathname` is decoded (what routes and files are matched on); `url` is the request target as sent. */
  | { kind: 'ok'; pathname: string; url: string }
  /** The same resource under its canonical spelling (path and query), for a redirect. */
  | { kind: 'redirect'; location: string }
  | { kind: 'bad'; status: 400 | 414 };

// Most paths: nothing to decode, no dot segment, no empty segment; the pathname is the path itself.
const PLAIN = /^\/[\w\-.~/]*$/;
// Separators hidden in an escape, which a later decoding step would turn into real ones.
const ENCODED_SEPARATOR = /%(?:2f|5c)/i;

/** Reads a request target (`req.url`): the canonical path, a redirect to it, or a refusal. */
export function requestTarget(url: string): Target {
  if (url.length > MAX_URL_LENGTH) return { kind: 'bad', status: 414 };
  if (url[0] !== '/') return { kind: 'bad', status: 400 };
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (PLAIN.test(path) && !path.includes('//') && !path.includes('/.') && !path.endsWith('/index.html'))
    return { kind: 'ok', pathname: path, url };
  if (path.includes('\\') || ENCODED_SEPARATOR.test(path)) return { kind: 'bad', status: 400 };

  const kept: string[] = [];
  const raw = path.split('/');
  for (let i = 1; i < raw.length; i++) {
    const segment = raw[i];
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { kind: 'bad', status: 400 };
    }
    if (decoded === '' || decoded === '.') continue;
    if (decoded === '..') {
      if (!kept.length) return { kind: 'bad', status: 400 };
      kept.pop();
      continue;
    }
    kept.push(segment);
  }
  // A directory's index file is the directory: `/blogs/index.html` is `/blogs/`.
  const index = kept.length > 0 && decodeURIComponent(kept[kept.length - 1]) === 'index.html';
  if (index) kept.pop();
  const trailing = kept.length > 0 && (index || path.endsWith('/'));
  const canonical = '/' + kept.join('/') + (trailing ? '/' : '');
  if (canonical !== path) return { kind: 'redirect', location: canonical + (q < 0 ? '' : url.slice(q)) };
  return { kind: 'ok', pathname: decodeURIComponent(canonical), url };
}
