// State lives in the runtime container (src/server/runtime.ts: one per store, closed with it), never in a
// module, except the few process-wide caches ARCHITECTURE.md lists under "State outside the runtime".
// A module-level `let`, or a module-level Map/Set/object that the file changes, is state: it is found
// here and must be one of those.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-graph';

/** file → names: each is in ARCHITECTURE.md with why it may outlive a runtime. */
const DOCUMENTED: Record<string, string[]> = {
  'src/server/main.ts': ['config', 'runtime', 'ops', 'stopping'],
  'src/server/auth/jwt.ts': ['keys', 'knownTokens'],
  'src/server/http/cache.ts': ['serialised', 'runs'],
  'src/server/http/contract-doc.ts': ['names'],
  'src/server/host/search-index.ts': ['compressed'],
  'src/server/observability/metrics.ts': ['cacheCounts', 'routeOfUrl'],
  'src/server/observability/tracing.ts': ['tracer'],
};

/** The module-level state of a source: `let`s, and collections or objects it changes after load. */
export function moduleState(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(
    /^(?:export )?(let|const) (\w+)(?::[^=\n]+)?(?: = (new (?:Map|WeakMap|Set|WeakSet)\b|\{))?/gm,
  )) {
    const [, kind, name, init] = m;
    const changed =
      kind === 'let' ||
      (init?.startsWith('new') && new RegExp(`\\b${name}\\.(set|add|delete|clear)\\(`).test(code)) ||
      (init === '{' && new RegExp(`\\b${name}\\.\\w+\\s*(\\+\\+|--|[-+]?=[^=>])`).test(code));
    if (changed) found.push(name);
  }
  return found;
}

describe('module-level state', () => {
  it('sees state (the check itself)', () => {
    expect(moduleState('let n = 0;\nconst seen = new Map();\nexport const f = () => seen.set(1, 2);')).toEqual([
      'n',
      'seen',
    ]);
    expect(moduleState("const KINDS = new Set(['a']);\nconst limits = { a: 1 };\nfunction g() { let x = 1; }")).toEqual(
      [],
    );
    expect(moduleState('const counts = { hit: 0 };\nexport const hit = () => counts.hit++;')).toEqual(['counts']);
    expect(moduleState('export let current: string | undefined;')).toEqual(['current']);
  });

  it('is only what ARCHITECTURE.md documents', () => {
    const architecture = readFileSync('docs/ARCHITECTURE.md', 'utf8');
    const state = Object.fromEntries(
      sourceFiles('src/server')
        .map((f) => [f, moduleState(readFileSync(f, 'utf8'))] as const)
        .filter(([, names]) => names.length),
    );
    expect(state).toEqual(DOCUMENTED);
    for (const [file, names] of Object.entries(DOCUMENTED))
      for (const name of names) expect(architecture, `${file} ${name}`).toContain(`\`${name}\``);
  });
});
