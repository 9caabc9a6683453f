// The shape every feature folder of src/server has (docs/ARCHITECTURE.md, "One feature, worked through"),
// checked the way import-boundaries.test.ts checks the layers:
// - `<feature>.routes.ts` is its only routes file: HTTP only, bound to its contracts, no SQL;
// - a `*.service.ts` holds the rules and at most a few statements: the rest are in a `.sql.ts` beside it;
// - everything else in the folder (services, flows, SQL, adapters) knows nothing of HTTP: it imports
//   nothing from http/ or auth/guards.ts and throws the domain's errors (src/server/errors.ts), which
//   http/errors.ts alone turns into status codes;
// - types.ts, which every feature imports, imports no feature (the adapters' interfaces are ports.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf, graph, sourceFiles } from './source-graph';

const SERVER = 'src/server';
/** The named parts that are not features: the process, HTTP, the database, the host … (ARCHITECTURE.md). */
const PARTS = new Set(['auth', 'builds', 'caching', 'db', 'host', 'http', 'observability', 'ops']);
const features = readdirSync(SERVER, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !PARTS.has(e.name))
  .map((e) => e.name);
const filesOf = (feature: string) => sourceFiles(path.join(SERVER, feature));
const isRoutes = (file: string) => file.endsWith('.routes.ts');
const SQL = /['"`]\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS)\b/;

describe('the shape of a feature', () => {
  const edges = graph();

  it('finds the features (the checks below are not empty)', () => {
    expect(features).toEqual(expect.arrayContaining(['tools', 'orders', 'payments', 'reviews', 'checkout', 'emails']));
  });

  it.each(features)('%s: its routes file, if any, is <feature>.routes.ts, and the only one', (feature) => {
    const routes = filesOf(feature).filter(isRoutes);
    expect(routes.map((f) => path.basename(f))).toEqual(routes.length ? [`${feature}.routes.ts`] : []);
  });

  it.each(features)('%s: its routes run no SQL (that is the service, or its .sql.ts)', (feature) => {
    const withSql = filesOf(feature).filter((f) => isRoutes(f) && SQL.test(codeOf(f)));
    expect(withSql).toEqual([]);
  });

  // A service reads as its rules: beyond a few statements, they live in a .sql.ts beside it.
  it.each(features)('%s: each *.service.ts runs at most 3 statements itself (the rest in a .sql.ts)', (feature) => {
    const heavy = filesOf(feature)
      .filter((f) => f.endsWith('.service.ts'))
      .map((f) => `${f}: ${codeOf(f).match(new RegExp(SQL.source, 'g'))?.length ?? 0} statements`)
      .filter((line) => Number(line.match(/(\d+) statements$/)![1]) > 3);
    expect(heavy).toEqual([]);
  });

  it.each(features)('%s: nothing but its routes knows HTTP (no import of http/ or auth/guards.ts)', (feature) => {
    const crossing = edges
      .filter((e) => e.from.startsWith(`${SERVER}/${feature}/`) && !isRoutes(e.from))
      .filter((e) => e.to?.startsWith(`${SERVER}/http/`) || e.to === `${SERVER}/auth/guards.ts`)
      .map((e) => `${e.from}:${e.line} imports ${e.to}`);
    expect(crossing).toEqual([]);
  });

  it('types.ts imports no feature', () => {
    const up = edges
      .filter((e) => e.from === `${SERVER}/types.ts`)
      .filter((e) => features.some((f) => e.to?.startsWith(`${SERVER}/${f}/`)))
      .map((e) => e.to);
    expect(up).toEqual([]);
  });

  it('the SQL check sees SQL (the check itself)', () => {
    expect(SQL.test("db.query('SELECT 1')")).toBe(true);
    expect(SQL.test('`INSERT INTO tools (id) VALUES ($1)`')).toBe(true);
    expect(SQL.test("c.json({ message: 'Select a tool' })")).toBe(false);
  });
});

describe('the size of a server file', () => {
  // Migrations are a list that only grows (the seed's data is JSON); everything else reads in one sitting.
  const LONG_BY_NATURE = new Set([`${SERVER}/db/migrations.ts`]);
  it('is at most 300 lines', () => {
    const long = sourceFiles(SERVER)
      .filter((f) => !LONG_BY_NATURE.has(f))
      .map((f) => [f, readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
  });
});
