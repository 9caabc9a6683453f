// Part 1: JavaScript each page loads before any interaction (gzip), against its budget.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BROWSER_HEADERS, http } from '../load.ts';
import {
  br,
  FIRST_WINDOW,
  measureHtml,
  measurePages,
  overBudget,
  overWindow,
  printWeights,
  toolPageOf,
  type PageWeight,
} from '../pages.ts';
import type { Rendered } from '../report.ts';
import { DIST_DIR, ensureBenchBuild, PORTS, startStore, TMP } from '../store.ts';

export async function run(): Promise<PageWeight[]> {
  ensureBenchBuild();
  const prebuilt = measurePages(path.resolve(DIST_DIR));
  const weights = [...prebuilt, ...(await livePages(prebuilt))];
  printWeights(weights);
  return weights;
}

/**
 * The pages rendered from live data (home, a tool's page, a catalogue page: /tools/page/2, or /tools
 * with fewer tools) are measured as the bench store serves them: the HTML as sent (brotli), and its
 * scripts from a copy of the HTML. Every storefront page's whole answer (headers included) is measured
 * from the same store.
 */
async function livePages(prebuilt: PageWeight[]): Promise<PageWeight[]> {
  const clientDir = path.resolve(DIST_DIR, 'client');
  const store = await startStore({ name: 'pages', port: PORTS.store });
  try {
    for (const w of prebuilt.filter((p) => p.firstWindow)) {
      const served = await http('GET', `${store.url}${w.page}`, { headers: BROWSER_HEADERS });
      if (served.status !== 200 && !(w.page === '/404' && served.status === 404))
        throw new Error(`${w.page} answered ${served.status}`);
      w.response = served.headerBytes + Number(served.headers['content-length']);
    }
    const catalogue = (await http('GET', `${store.url}/tools/page/2`)).status === 404 ? '/tools' : '/tools/page/2';
    const measured: PageWeight[] = [];
    for (const [label, page, budget] of [
      ['/', '/', 20 * 1024],
      ['/tools/{id}', await toolPageOf(store.url), undefined],
      ['/tools/page/N', catalogue, undefined],
    ] as const) {
      const compressed = await http('GET', `${store.url}${page}`, { headers: BROWSER_HEADERS });
      const plain = await http('GET', `${store.url}${page}`);
      if (compressed.status !== 200 || plain.status !== 200) throw new Error(`${page} answered ${plain.status}`);
      if (compressed.headers['content-encoding'] !== 'br') throw new Error(`${page} was not sent with brotli`);
      mkdirSync(TMP, { recursive: true });
      const copy = path.join(TMP, `live-page-${measured.length}.html`);
      writeFileSync(copy, plain.body);
      // A tool page's islands hydrate for a signed-in shopper (the spec requires one): what they load, as sent.
      const sent =
        label === '/tools/{id}' ? { sent: measureHtml(clientDir, plain.body, br).bytes, sentBudget: 92 * 1024 } : {};
      measured.push({
        page: label,
        file: path.relative(clientDir, copy),
        budget,
        ...sent,
        ...measureHtml(clientDir, plain.body),
        document: Number(compressed.headers['content-length']),
        response: compressed.headerBytes + Number(compressed.headers['content-length']),
        firstWindow: true,
      });
    }
    return measured;
  } finally {
    await store.stop();
  }
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;
const over = (w: PageWeight) => w.budget !== undefined && w.bytes > w.budget;

export const failed = (weights: PageWeight[]) => weights.some(overBudget);

export function render(weights: PageWeight[]): Rendered {
  const lines = [
    '## 1. JavaScript per page (gzip, before any interaction)',
    '',
    'Module scripts and their static imports, modulepreloads, islands that hydrate at once (component + renderer),',
    'inline scripts. `client:visible` islands and dynamic imports load later, so they are not counted.',
    `HTML is the page as served (brotli); the answer is what the store sends for it, status line and headers included.`,
    `A storefront page's answer must fit a connection's first round trip: ${bytes(FIRST_WINDOW)} (10 TCP segments).`,
    '',
    '| page | JavaScript | files | budget | HTML (br) | answer | |',
    '|---|---|---|---|---|---|---|',
    ...weights.map(
      (w) =>
        `| ${w.page} | ${kB(w.bytes)} | ${w.scripts} | ${w.budget ? kB(w.budget) : '—'} | ${w.document === undefined ? '—' : bytes(w.document)} | ${w.response === undefined ? '—' : bytes(w.response)} | ${w.budget || w.firstWindow ? (overBudget(w) ? '✗' : '✓') : ''} |`,
    ),
  ];
  const windowed = weights.filter((w) => w.firstWindow && w.response !== undefined);
  const budgeted = weights.filter((w) => w.budget);
  const home = weights.find((w) => w.page === '/');
  const small = budgeted.filter((w) => w.page !== '/');
  return {
    summary: [
      ...(home ? [{ metric: 'JS on home (gzip)', goal: '≤ 20 kB', result: kB(home.bytes), ok: !over(home) }] : []),
      ...(small.length
        ? [
            {
              metric: `JS on ${small.map((w) => w.page).join(' / ')}`,
              goal: '≤ 8 kB',
              result: small.map((w) => kB(w.bytes)).join(' / '),
              ok: !small.some(over),
            },
          ]
        : []),
      ...weights
        .filter((w) => w.sent !== undefined)
        .map((w) => ({
          metric: `JS of a signed-in tool page as sent (brotli; issue 30 goal 6)`,
          goal: `≤ ${kB(w.sentBudget!)}`,
          result: kB(w.sent!),
          ok: w.sent! <= w.sentBudget!,
        })),
      ...(windowed.length
        ? [
            {
              metric: `Answer (headers + brotli HTML) of ${windowed.map((w) => w.page).join(' / ')}`,
              goal: `≤ ${bytes(FIRST_WINDOW)}`,
              result: windowed.map((w) => w.response!.toLocaleString('en-US')).join(' / ') + ' B',
              ok: !windowed.some(overWindow),
            },
          ]
        : []),
    ],
    section: lines.join('\n'),
  };
}
