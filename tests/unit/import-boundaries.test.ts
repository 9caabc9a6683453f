// The map in docs/ARCHITECTURE.md, checked: which folders of src/ may import which, and no import
// cycle anywhere. Every import counts for the boundaries, `import type` included (a type from the server
// in an island still ties the island to the server's code). For cycles every edge counts too: static,
// type-only, re-exports and dynamic `import('…')` with a literal path. A dynamic import loads later, but
// two modules that reach for each other are still one tangle to read and to change (client/infra/api.ts ⇄
// client/state/session.ts was one, through a dynamic import).
import { describe, expect, it } from 'vitest';
import { cycles, graph, type ImportEdge } from './source-graph';

const area = (file: string) => /^src\/([^/]+)\//.exec(file)?.[1] ?? 'root';

/** Folder → folders of src/ it must never import. */
const FORBIDDEN: Record<string, string[]> = {
  lib: ['server', 'client', 'islands', 'components', 'pages', 'layouts'],
  islands: ['server'],
  client: ['server'],
  components: ['server'],
  layouts: ['server'],
  server: ['islands', 'client', 'components', 'layouts', 'pages'],
};

const describeEdge = (e: ImportEdge) => `${e.from}:${e.line} imports ${e.to} (${e.kind})`;

describe('import boundaries of src/', () => {
  const edges = graph();

  it('sees the graph (the check reads real imports)', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.some((e) => e.from === 'src/server/app.ts' && e.to === 'src/server/orders/orders.service.ts')).toBe(
      true,
    );
  });

  it.each(Object.entries(FORBIDDEN))('src/%s imports nothing from %j', (from, forbidden) => {
    const crossing = edges.filter((e) => area(e.from) === from && forbidden.includes(area(e.to!))).map(describeEdge);
    expect(crossing).toEqual([]);
  });

  it('orders and payments import nothing of each other; the checkout flow ties them (issue 25)', () => {
    const folder = (file: string) => /^src\/server\/([^/]+)\//.exec(file)?.[1];
    // Their code: the services and routes. The provider's interface (ports.ts) and the one SQL
    // fragment orders read of the payments table (payments/payment-reads.ts) are shared, not code of either.
    const code = (file: string) => /\.(service|routes)\.ts$/.test(file);
    const crossing = edges
      .filter((e) => code(e.to!))
      .filter(
        (e) =>
          (folder(e.from) === 'orders' && folder(e.to!) === 'payments') ||
          (folder(e.from) === 'payments' && folder(e.to!) === 'orders'),
      )
      .map(describeEdge);
    expect(crossing).toEqual([]);
    expect(
      edges.some(
        (e) => e.from === 'src/server/checkout/checkout.flow.ts' && e.to === 'src/server/payments/payments.service.ts',
      ),
    ).toBe(true);
  });

  it('has no import cycle', () => {
    const found = cycles(edges).map((c) => c.join(' → '));
    expect(found, `import cycles:\n${found.join('\n')}`).toEqual([]);
  });
});

describe('the cycle finder (the check itself)', () => {
  const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to, kind: 'static', line: 1 });
  it('reports each cycle as a path back to its start', () => {
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts')])).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    ]);
    expect(cycles([edge('a.ts', 'a.ts')])).toEqual([['a.ts', 'a.ts']]);
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts')])).toEqual([]);
  });
});
