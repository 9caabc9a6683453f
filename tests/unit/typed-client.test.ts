// The browser calls the API only through its typed client (issue 29): api.<group>.<name>(…) from
// client/infra/api.ts (or publicApi from client/infra/public-api.ts on light pages), typed by the contracts. No
// island, page or browser module writes an API path, or sends a request of its own (fetch, XHR, ky).
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { apiContracts } from '../../src/lib/contracts/api';
import { codeOf, sourceFiles, sourceOf } from './source-graph';

/** The client's own modules: the only code that turns a call into a request. */
const CLIENT = new Set(['src/client/infra/api.ts', 'src/client/infra/api-calls.ts', 'src/client/infra/public-api.ts']);
/** Browser code and pages (src/pages/api/ serves the API itself under `astro dev`). */
const BROWSER = /^src\/(islands|client|components|layouts|pages)\/|^src\/middleware\.ts$/;
/** Files that name an API path without calling it, each with its reason. */
const NAMES_ONLY: Record<string, string> = { 'src/pages/robots.txt.ts': 'tells crawlers to keep out of /api/' };

interface Finding {
  file: string;
  line: number;
  what: string;
}

function findings(file: string, code: string): Finding[] {
  const source = sourceOf(file, code);
  const found: Finding[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (
        /(^|\/)api(\/|$)/.test(node.text) &&
        !ts.isImportDeclaration(node.parent) &&
        !ts.isCallExpression(node.parent)
      )
        at(node, `an API path: ${JSON.stringify(node.text)}`);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fetch') {
      at(node, 'a fetch of its own');
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'XMLHttpRequest'
    ) {
      at(node, 'an XMLHttpRequest of its own');
    } else if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === 'ky'
    ) {
      at(node, 'ky, outside the client');
    } else if (
      ts.isPropertyAccessExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      /^(api|publicApi)$/.test(node.expression.expression.text)
    ) {
      const group = node.expression.name.text;
      const calls = (apiContracts as Record<string, Record<string, unknown>>)[group];
      if (!calls || !(node.name.text in calls)) at(node, `a call no contract declares: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the typed API client in use', () => {
  it('is the only way browser code reaches the API: no path strings, fetch, XHR or ky outside it', () => {
    const files = sourceFiles().filter(
      (f) => BROWSER.test(f) && !f.startsWith('src/pages/api/') && !CLIENT.has(f) && !(f in NAMES_ONLY),
    );
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => findings(f, codeOf(f))).map((f) => `${f.file}:${f.line}: ${f.what}`);
    expect(found, 'call api.<group>.<name>(…) from client/infra/api.ts (typed by src/lib/contracts/)').toEqual([]);
  });

  it('is used: the islands call the API through it', () => {
    const calls = sourceFiles()
      .filter((f) => f.startsWith('src/islands/'))
      .flatMap((f) => [...codeOf(f).matchAll(/\bapi\.(\w+)\.(\w+)\b/g)].map((m) => `${m[1]}.${m[2]}`));
    expect(new Set(calls).size).toBeGreaterThan(30);
  });

  it('finds what it looks for (the check itself)', () => {
    const code = [
      "import ky from 'ky';",
      "const a = fetch('/api/tools');",
      'const b = `booking/ship/${id}`;',
      "const c = 'api/booking';",
      'new XMLHttpRequest();',
      'api.tools.fly();',
      'api.tools.get({ params: { id } });',
      "const fine = '/tools/' + id; // a page, not the API",
    ].join('\n');
    expect(findings('x.ts', code).map((f) => `${f.line}: ${f.what}`)).toEqual([
      '1: ky, outside the client',
      '2: a fetch of its own',
      '4: an API path: "api/booking"',
      '5: an XMLHttpRequest of its own',
      '6: a call no contract declares: api.tools.fly',
    ]);
  });
});
