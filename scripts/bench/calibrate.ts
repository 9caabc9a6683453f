// Is the load generator the bottleneck? Before trusting a ratio, wrk must answer at least twice our
// server's best rate against the cheapest server there is (nginx's `return 200 "ok"`, else a bare
// node:http server's 2 bytes), on the same cores. Otherwise the part is marked invalid, not ratioed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startBareLike } from './bare.ts';
import { best, hammer, type LoadResult } from './load.ts';
import { ensureNginx, startNginx } from './nginx.ts';
import { DIST_DIR, PORTS } from './store.ts';

export interface Calibration {
  /** What wrk was pointed at. */
  target: string;
  rps: number;
  p99: number;
  /** Our best rate in the part, and twice it: what the client must reach. */
  ours: number;
  needed: number;
  valid: boolean;
}

/** Where the client's ceiling is measured, once per round beside the servers (the machine's load moves). */
export interface Ceiling {
  target: string;
  url: string;
  pids: number[];
  runs: LoadResult[];
  /**
   * nginx only: the URL of a file holding `body`'s bytes, for an answer too large for the 2-byte ceiling
   * to speak for (a 1 MB catalogue costs wrk and the kernel far more per request than "ok").
   */
  sized?: (name: string, body: Buffer) => string;
}

/** The cheapest server there is, to measure wrk against: nginx when installed, else a bare node:http server. */
export async function startCeiling(): Promise<Ceiling> {
  if (ensureNginx()) {
    const nginx = await startNginx(`${DIST_DIR}/client`, PORTS.nginx);
    return {
      target: 'nginx `return 200 "ok"`',
      url: `${nginx.url}/__calibrate`,
      pids: nginx.pids(),
      runs: [],
      sized: (name, body) => {
        writeFileSync(path.join(nginx.bytesDir, name), body);
        return `${nginx.url}/__calibrate/bytes/${name}`;
      },
    };
  }
  const bare = await startBareLike('', [], {}, PORTS.bare + 1);
  return {
    target: 'a bare node:http server answering 2 bytes',
    url: `${bare.url}/__calibrate`,
    pids: [bare.pid],
    runs: [],
  };
}

/** One calibration run; parts run one per round, beside the servers, and judge the best. */
export const ceilingRun = (url: string, pids: number[]): Promise<LoadResult> => hammer(url, {}, pids);

export function judge(target: string, runs: LoadResult[], oursRates: number[]): Calibration {
  const ceiling = best(runs);
  const ours = Math.max(...oursRates);
  return { target, rps: ceiling.rps, p99: ceiling.p99, ours, needed: 2 * ours, valid: ceiling.rps >= 2 * ours };
}

export const calibrationLine = (c: Calibration) =>
  `**Calibration** (${c.valid ? 'valid' : 'INVALID: the client, not the server, may be the limit; ratios not reported'}): ` +
  `wrk against ${c.target} reached ${c.rps.toLocaleString('en-US')} rps (p99 ${c.p99} ms); ` +
  `it must reach twice our best rate here, ${c.ours.toLocaleString('en-US')} × 2 = ${c.needed.toLocaleString('en-US')} rps.`;
