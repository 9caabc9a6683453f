// Is the load generator the bottleneck? Before trusting a ratio, wrk must answer at least twice our
// server's best rate against the cheapest server there is (nginx's `return 200 "ok"`, else a bare
// node:http server's 2 bytes), on the same cores. Otherwise the part is marked invalid, not ratioed.
import { best, hammer, type LoadResult } from './load.ts';

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
