// Readers of the site while a publish switches builds: each loop asks for pages and, for every page, the
// hashed scripts and styles it links, so a page of one build with assets of no build shows as a failure.
// Used by the one-server publish test and the cluster test.

export interface Answer {
  status: number;
  body: string;
}

export interface LoadReport {
  requests: number;
  /** One line per failed request: what was asked and what came back. */
  failures: string[];
  /** The build ids /api/health named, in the order they were first seen. */
  builds: string[];
}

const ASSET = /["'(](\/_astro\/[\w.-]+\.(?:js|css))["')]/g;

/** Starts `loops` readers over `paths`; `stop()` ends them and reports. */
export function readersOf(get: (path: string) => Promise<Answer>, paths: string[], loops = 6) {
  const report: LoadReport = { requests: 0, failures: [], builds: [] };
  let running = true;
  async function ask(path: string): Promise<Answer | undefined> {
    report.requests++;
    try {
      const answer = await get(path);
      if (answer.status !== 200) report.failures.push(`${path}: ${answer.status}`);
      return answer;
    } catch (error) {
      report.failures.push(`${path}: ${(error as Error).message}`);
      return undefined;
    }
  }
  async function loop(offset: number) {
    for (let i = offset; running; i++) {
      const path = paths[i % paths.length];
      const answer = await ask(path);
      if (!answer || answer.status !== 200) continue;
      if (path === '/api/health') {
        const { build } = JSON.parse(answer.body) as { build: string };
        if (!report.builds.includes(build)) report.builds.push(build);
      } else if (!path.startsWith('/api/') && !answer.body.includes('</html>'))
        report.failures.push(`${path}: the page was cut short`);
      for (const [, asset] of answer.body.matchAll(ASSET)) await ask(asset);
    }
  }
  const loopsDone = Promise.all(Array.from({ length: loops }, (_, i) => loop(i)));
  return {
    report,
    async stop(): Promise<LoadReport> {
      running = false;
      await loopsDone;
      return report;
    },
  };
}
