// Part 2: Lighthouse (mobile defaults: simulated slow 4G and 4x CPU slowdown) on the home page, a tool
// page, the blog list and the catalogue's first page, in Debian's Chromium; the median of 3 runs of each metric. Tool pages need a
// signed-in user (spec), so that page is measured signed in: log in through /login, clear the HTTP
// cache (a first visit), keep the session, then audit.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { ensureAccount } from '../../lib/emulator.ts';
import { median, round } from '../load.ts';
import { toolPageOf } from '../pages.ts';
import type { Rendered } from '../report.ts';
import { EMULATOR, ensureBenchBuild, onCleanup, PORTS, startBenchEmulator, startStore, TMP } from '../store.ts';

const RUNS = 3;
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const SHOPPER = { email: 'bench-shopper@ironcrest.test', password: 'shopper-pass-123', name: 'Bench Shopper' };

interface Scores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
}
interface PageScores {
  label: string;
  path: string;
  runs: Scores[];
  median: Scores;
}
export interface LighthouseData {
  version: string;
  chromium: string;
  pages: PageScores[];
  /**
   * Lighthouse's own measure of this machine's CPU (`environment.benchmarkIndex`, median of every run):
   * its simulated 4x slowdown multiplies the tasks it observed, so a slower machine gives a longer TBT.
   */
  benchmarkIndex?: number;
}

interface Lhr {
  lighthouseVersion: string;
  environment: { hostUserAgent: string; benchmarkIndex?: number };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number }>;
  runtimeError?: { message: string };
}

async function browser(): Promise<Browser> {
  const b = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: false,
    args: FLAGS,
    protocolTimeout: 120_000,
  });
  onCleanup(() => b.close().catch(() => {}));
  return b;
}

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/login`, { waitUntil: 'networkidle0', timeout: 60_000 });
  await page.locator('input[name="email"]').fill(SHOPPER.email);
  await page.locator('input[name="password"]').fill(SHOPPER.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForFunction(() => Boolean(localStorage.getItem('accessToken')), { timeout: 60_000 });
}

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART) and says to run it again: up to 3 tries. */
async function audit(url: string, signedIn: boolean): Promise<Lhr> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url, signedIn);
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`  (retrying ${url}: ${(error as Error).message.slice(0, 120)})`);
    }
  }
}

/** One Lighthouse run in a fresh browser; signed in first when asked. */
async function auditOnce(url: string, signedIn: boolean): Promise<Lhr> {
  const b = await browser();
  try {
    // Anonymous runs let Lighthouse open its own tab; signed-in runs hand it the tab that logged in.
    let page: Page | undefined;
    if (signedIn) {
      page = await b.newPage();
      await signIn(page, new URL(url).origin);
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
    }
    const port = Number(new URL(b.wsEndpoint()).port);
    const result = await lighthouse(
      url,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
        disableStorageReset: signedIn,
        maxWaitForLoad: 30_000,
      },
      undefined,
      page,
    );
    const lhr = result?.lhr as unknown as Lhr | undefined;
    if (!lhr) throw new Error(`lighthouse ${url}: no result`);
    if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    await b.close().catch(() => {});
  }
}

const score = (lhr: Lhr, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const metric = (lhr: Lhr, id: string) => lhr.audits[id]?.numericValue ?? NaN;

function scores(lhr: Lhr): Scores {
  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    lcpMs: Math.round(metric(lhr, 'largest-contentful-paint')),
    tbtMs: Math.round(metric(lhr, 'total-blocking-time')),
    cls: round(metric(lhr, 'cumulative-layout-shift'), 3),
    fcpMs: Math.round(metric(lhr, 'first-contentful-paint')),
  };
}

export async function run(): Promise<LighthouseData> {
  ensureBenchBuild();
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROME_PATH)`);
  await startBenchEmulator();
  await ensureAccount(EMULATOR, SHOPPER);
  const store = await startStore({ name: 'lighthouse', port: PORTS.store });
  const toolPage = await toolPageOf(store.url);
  // localhost (not 127.0.0.1) so the page is a secure context, as it is over HTTPS in production.
  const origin = store.url.replace('127.0.0.1', 'localhost');
  const pages: PageScores[] = [];
  let version = '';
  let chromium = '';
  const benchmarkIndexes: number[] = [];
  for (const [label, p, signedIn] of [
    ['home', '/', false],
    ['tool page (signed in)', toolPage, true],
    ['blogs', '/blogs', false],
    ['catalogue page', '/tools', false],
  ] as const) {
    const runs: Scores[] = [];
    for (let i = 0; i < RUNS; i++) {
      const lhr = await audit(origin + p, signedIn);
      // Every report is kept, to see which audit or request a number came from.
      writeFileSync(path.join(TMP, `lighthouse-${label.split(' ')[0]}-${i + 1}.json`), JSON.stringify(lhr));
      version = lhr.lighthouseVersion;
      chromium = /Chrome\/([\d.]+)/.exec(lhr.environment.hostUserAgent)?.[1] ?? '';
      if (lhr.environment.benchmarkIndex) benchmarkIndexes.push(lhr.environment.benchmarkIndex);
      runs.push(scores(lhr));
    }
    const med = Object.fromEntries(
      Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k as keyof Scores]))]),
    ) as unknown as Scores;
    console.log(
      `  ${label.padEnd(22)} perf ${med.performance} a11y ${med.accessibility} bp ${med.bestPractices} seo ${med.seo} | LCP ${med.lcpMs} ms TBT ${med.tbtMs} ms CLS ${med.cls}`,
    );
    pages.push({ label, path: p, runs, median: med });
  }
  await store.stop();
  const benchmarkIndex = benchmarkIndexes.length ? Math.round(median(benchmarkIndexes)) : undefined;
  if (benchmarkIndex) console.log(`  Lighthouse's CPU benchmark index of this machine (median): ${benchmarkIndex}`);
  return { version, chromium, pages, benchmarkIndex };
}

const GOAL = { performance: 98, accessibility: 100, bestPractices: 100, seo: 100, lcpMs: 1200, tbtMs: 50 };
/** Issue 30, goal 6: home's LCP under 1,000 ms; the other pages keep the earlier 1,200 ms. */
const lcpGoal = (p: string) => (p === '/' ? 1000 : GOAL.lcpMs);
const meets = (s: Scores, p: string) =>
  s.performance >= GOAL.performance &&
  s.accessibility >= GOAL.accessibility &&
  s.bestPractices >= GOAL.bestPractices &&
  s.seo >= GOAL.seo &&
  s.lcpMs < lcpGoal(p) &&
  s.tbtMs < GOAL.tbtMs;

export function render(data: LighthouseData): Rendered {
  const lines = [
    '## 2. Lighthouse (mobile defaults, median of 3)',
    '',
    `Lighthouse ${data.version}, Chromium ${data.chromium} (\`${FLAGS.join(' ')}\`), simulated throttling (slow 4G, 4× CPU), against our server on localhost.`,
    'Tool pages require sign-in (spec), so that page is audited signed in, with a cold HTTP cache.',
    ...(data.benchmarkIndex
      ? [
          `Lighthouse's CPU benchmark index of this machine: ${data.benchmarkIndex} (median of every run). The simulated 4× slowdown multiplies the tasks Chromium ran here, so a slower machine shows a longer TBT for the same page.`,
        ]
      : []),
    '',
    '| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | FCP | goal met |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...data.pages.map(
      ({ label, path: p, median: m }) =>
        `| ${label} (\`${p}\`) | ${m.performance} | ${m.accessibility} | ${m.bestPractices} | ${m.seo} | ${m.lcpMs} ms | ${m.tbtMs} ms | ${m.cls} | ${m.fcpMs} ms | ${meets(m, p) ? '✓' : '✗'} |`,
    ),
    '',
    'Goal: ≥ 98 / 100 / 100 / 100, LCP < 1.2 s (home: < 1.0 s, issue 30), TBT < 50 ms.',
  ];
  return {
    summary: data.pages.map(({ label, path: p, median: m }) => ({
      metric: `Lighthouse ${label}: perf / a11y / BP / SEO, LCP, TBT`,
      goal: `98/100/100/100, < ${lcpGoal(p).toLocaleString('en-US')} ms, < 50 ms`,
      result: `${m.performance}/${m.accessibility}/${m.bestPractices}/${m.seo}, ${m.lcpMs} ms, ${m.tbtMs} ms`,
      ok: meets(m, p),
    })),
    section: lines.join('\n'),
  };
}
