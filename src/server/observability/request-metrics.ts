// Requests and their latency, counted in plain numbers per label set and written as Prometheus text
// only when scraped. This runs per request: prom-client's labelled counter and histogram hash their
// label object on every call (a tenth of a cached API read's cost), a bucket count here is a loop.

/** Upper bounds of the latency buckets, in seconds (Prometheus `le`). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  method: string;
  route: string;
  /** Requests answered, by status. */
  byStatus: Map<number, number>;
  /** Observations per bucket (not cumulative; the last slot is above every bound). */
  buckets: Float64Array;
  sum: number;
  count: number;
}

export interface RequestMetrics {
  observe(method: string, route: string, status: number, seconds: number): void;
  /** The two metrics in the Prometheus text format, each ending with a newline. */
  text(): string;
}

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

interface Named {
  name: string;
  help: string;
}

/** `requests` and `latency` name the two metrics (metrics.ts gives the names and help texts). */
export function requestMetrics(requests: Named, latency: Named): RequestMetrics {
  const series = new Map<string, Series>();
  return {
    observe(method, route, status, seconds) {
      const key = method + ' ' + route;
      let s = series.get(key);
      if (!s) {
        s = { method, route, byStatus: new Map(), buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
        series.set(key, s);
      }
      s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
      let i = 0;
      while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
      s.buckets[i]++;
      s.sum += seconds;
      s.count++;
    },
    text() {
      const counts = [`# HELP ${requests.name} ${requests.help}`, `# TYPE ${requests.name} counter`];
      const times = [`# HELP ${latency.name} ${latency.help}`, `# TYPE ${latency.name} histogram`];
      for (const s of series.values()) {
        const labels = `method="${escape(s.method)}",route="${escape(s.route)}"`;
        for (const [status, n] of s.byStatus) counts.push(`${requests.name}{${labels},status="${status}"} ${n}`);
        let cumulative = 0;
        BUCKETS.forEach((bound, i) => {
          cumulative += s.buckets[i];
          times.push(`${latency.name}_bucket{le="${bound}",${labels}} ${cumulative}`);
        });
        times.push(`${latency.name}_bucket{le="+Inf",${labels}} ${s.count}`);
        times.push(`${latency.name}_sum{${labels}} ${s.sum}`, `${latency.name}_count{${labels}} ${s.count}`);
      }
      return counts.join('\n') + '\n' + times.join('\n') + '\n';
    },
  };
}
