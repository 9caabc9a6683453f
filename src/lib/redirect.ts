// Where the login and signup pages send the visitor afterwards (?from=…): only somewhere on this site.

/**
 * `from` when it is a path on this site (its path, query and hash), else '/'. Browsers read `\` as `/`
 * and drop tabs and newlines inside URLs, so `/\evil.example` or `/<tab>/evil.example` would become
 * `//evil.example`, another site: the raw value must be one `/` followed by neither, with no control
 * characters, and must still resolve to this origin.
 */
export function safeRedirectPath(from: string | null | undefined, origin: string): string {
  if (!from || !from.startsWith('/') || from[1] === '/' || from[1] === '\\') return '/';
  if (/[\u0000-\u001f\u007f]/.test(from)) return '/';
  let url: URL;
  try {
    url = new URL(from, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin) return '/';
  return url.pathname + url.search + url.hash;
}
