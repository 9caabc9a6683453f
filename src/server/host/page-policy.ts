// A page's Content-Security-Policy as the header it goes out with. Astro's policy lists the hashes of every
// inline script and style the whole site may use (11 scripts and 6 styles), on every page: ~1.1 kB of
// headers, which pushed the home page's answer past a connection's first round trip (14,600 bytes). Each
// page keeps only the hashes of what it holds, so a hash another page needs allows nothing here.
//
// A server island's answer is inserted into its page and runs under the page's policy: it must hold no
// inline script or style of its own (the browser tests fail on any script the policy refuses).
import { createHash } from 'node:crypto';

const HASH = /^'(sha256|sha384|sha512)-([A-Za-z0-9+/=]+)'$/;
const INLINE = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;

/** The policy with only the hashes of the page's own inline scripts and styles, forbidding framing. */
export function pagePolicy(policy: string, html: string): string {
  return withFramingRule(ownHashesOnly(policy, html));
}

function ownHashesOnly(policy: string, html: string): string {
  const digests = new Map<string, Set<string>>();
  const present = (algorithm: string, digest: string) => {
    let set = digests.get(algorithm);
    if (!set) {
      set = new Set();
      for (const [, tag, attributes, body] of html.matchAll(INLINE))
        if (tag.toLowerCase() === 'style' || !/\bsrc\s*=/i.test(attributes))
          set.add(createHash(algorithm).update(body).digest('base64'));
      digests.set(algorithm, set);
    }
    return set.has(digest);
  };
  return policy
    .split(';')
    .map((directive) => {
      const tokens = directive.trim().split(/\s+/);
      // With 'unsafe-inline' the hashes are what keeps inline code out (browsers ignore it beside them).
      if (tokens.includes("'unsafe-inline'")) return directive;
      const kept = tokens.filter((token) => {
        const hash = HASH.exec(token);
        return !hash || present(hash[1], hash[2]);
      });
      return kept.length === tokens.length ? directive : `${/^\s*/.exec(directive)![0]}${kept.join(' ')}`;
    })
    .join(';');
}

/** The policy with one more script hash ('sha256-…') allowed: an inline script our own build or server wrote. */
export function withScriptHash(policy: string, hash: string): string {
  const directives = policy.split(';');
  const at = directives.findIndex((d) => d.trim().startsWith('script-src'));
  if (at < 0) return policy;
  directives[at] = `${directives[at].trimEnd()} '${hash}'`;
  return directives.join(';');
}

/** A page's policy with `frame-ancestors 'none'`, which a <meta> policy cannot carry. */
export function withFramingRule(policy: string): string {
  if (policy.includes('frame-ancestors')) return policy;
  const trimmed = policy.trimEnd();
  return `${trimmed.endsWith(';') ? trimmed.slice(0, -1) : trimmed}; frame-ancestors 'none'`;
}
