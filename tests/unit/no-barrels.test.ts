// One source per fact: a type or value is imported from the module that defines it (entities from
// src/lib/entities.ts, input types from the zod schemas in src/lib/schemas.ts), never passed on through
// a service, an island or a client module. A re-export makes a second address for the same thing and,
// between neighbours, import cycles (Profile.tsx ⇄ ProfileForm.tsx was one).
import { describe, expect, it } from 'vitest';
import { parse, sourceFiles } from './source-graph';

/** Re-exports that must stay, each with its reason. None today. */
const ALLOWED: Record<string, string> = {};

describe('no barrel re-exports in src/', () => {
  it('no file passes on what another module exports (export … from, export * from, export { imported })', () => {
    const found = sourceFiles()
      .flatMap((file) => parse(file).reExports)
      .filter((r) => !(`${r.file}: ${r.text}` in ALLOWED))
      .map((r) => `${r.file}:${r.line}: ${r.text}`);
    expect(found, 'import the name from the module that defines it instead').toEqual([]);
  });

  it('finds every form of re-export (the check itself)', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const dir = mkdtempSync('tests/unit/.barrels-');
    try {
      writeFileSync(`${dir}/a.ts`, 'export const a = 1;\nexport type A = number;\n');
      writeFileSync(
        `${dir}/b.ts`,
        [
          "import { a, type A } from './a.ts';",
          "export { a } from './a.ts';",
          "export type { A as B } from './a.ts';",
          "export * from './a.ts';",
          'export { a as c };',
          'export type { A };',
          'const own = 2;',
          'export { own };',
          '// export { a } from "./a.ts";',
        ].join('\n'),
      );
      expect(sourceFiles(dir).flatMap((f) => parse(f).reExports.map((r) => r.line))).toEqual([2, 3, 4, 5, 6]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
