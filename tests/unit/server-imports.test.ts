// The outer server (src/server/main.ts) runs the API's source directly on Node, which strips types
// but resolves imports as written: every relative import in src/server and src/lib names its file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );

describe('server source runs on Node as written', () => {
  const sources = [...files('src/server'), ...files('src/lib')];
  it.each(sources)('%s: relative imports carry their extension', (file) => {
    const text = readFileSync(file, 'utf8');
    const bare = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
      .map((m) => m[1])
      .filter((spec) => !/\.(ts|mjs|js|json)$/.test(spec));
    expect(bare).toEqual([]);
  });
  it.each(sources)('%s: no TypeScript-only runtime syntax (parameter properties, enums)', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/constructor\([^)]*\b(readonly|private|public|protected)\s/);
    expect(text).not.toMatch(/^\s*(export\s+)?(const\s+)?enum\s/m);
  });
});
