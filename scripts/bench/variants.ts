// Side-by-side stores that differ only in their environment, for a question one bench part does not answer
// (e.g. what one sampling ratio costs against another). The stores share the server core and are loaded at
// the same time, each by its own wrk, as in the tracing part; they are started once per variant, each
// variant taking each slot (port, data directory, start order) in turn. The first variant is the base.
//
//   VARIANTS='{"off":{},"on":{"OTEL_EXPORTER_OTLP_ENDPOINT":"http://127.0.0.1:9711"}}' \
//     node scripts/bench/variants.ts [path] [rounds per block]
//
// An OTLP/HTTP collector that accepts and drops spans listens on 127.0.0.1:9711 (the client's core).
// `{id}` in the path is each store's first tool. Prints every round, then each variant's median ratio to
// the base and its CPU time per request, and whether wrk could reach twice the stores' combined rate against
// the cheapest server (calibrate.ts): if not, the ratios measure the client and are not to be trusted.
import { createServer } from 'node:http';
import { calibrationLine, ceilingRun, judge, startCeiling } from './calibrate.ts';
import { CORES, hammerTogether, http, median, pin, round, settle } from './load.ts';
import { cleanup, ensureBenchBuild, PORTS, startStore, type Store } from './store.ts';

const variants = JSON.parse(process.env.VARIANTS ?? '{}') as Record<string, Record<string, string>>;
const names = Object.keys(variants);
if (names.length < 2) {
  console.error('VARIANTS must name at least two environments as JSON, the first being the base (see the header)');
  process.exit(2);
}
const target = process.argv[2] ?? '/api/tools/{id}';
const rounds = Number(process.argv[3] ?? 3);
const SECONDS = 4;

pin([process.pid], CORES.client);
const collector = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => collector.listen(9711, '127.0.0.1', resolve));
ensureBenchBuild();
const ceiling = await startCeiling();
const totals: number[] = [];

const ratios = new Map<string, number[]>(names.map((n) => [n, []]));
const cpu = new Map<string, number[]>(names.map((n) => [n, []]));
for (let block = 0; block < names.length; block++) {
  const stores = new Map<string, Store>();
  for (let slot = 0; slot < names.length; slot++) {
    const name = names[(slot - block + names.length) % names.length];
    const env = { DATA_DIR: `.data-bench-variants-slot${slot}`, ...variants[name] };
    stores.set(name, await startStore({ name: `variant-${name}`, port: PORTS.store + slot, env }));
  }
  try {
    const urls = new Map<string, string>();
    for (const [name, store] of stores) {
      const tools = JSON.parse((await http('GET', `${store.url}/api/tools`)).body) as { _id: string }[];
      urls.set(name, store.url + target.replace('{id}', tools[0]._id));
    }
    await Promise.all(names.map((n) => settle([urls.get(n)!], {}, [stores.get(n)!.pid])));
    for (let i = 0; i < rounds; i++) {
      const results = await hammerTogether(
        names.map((n) => ({ url: urls.get(n)!, pids: [stores.get(n)!.pid] })),
        SECONDS,
      );
      totals.push(results.reduce((sum, r) => sum + r.rps, 0));
      names.forEach((n, k) => {
        ratios.get(n)!.push(results[k].rps / results[0].rps);
        cpu.get(n)!.push(results[k].cpuUsPerRequest ?? NaN);
      });
      console.log(
        `block ${block} round ${i}: ` +
          names.map((n, k) => `${n} ${results[k].rps} rps, ${results[k].cpuUsPerRequest} µs/request`).join(' | '),
      );
    }
    ceiling.runs.push(await ceilingRun(ceiling.url, ceiling.pids));
  } finally {
    for (const store of stores.values()) await store.stop();
  }
}
for (const n of names) {
  console.log(
    `${n}: ${round(median(ratios.get(n)!), 3)} of ${names[0]} (rounds ${ratios
      .get(n)!
      .map((r) => round(r, 2))
      .join(' ')}), CPU ${median(cpu.get(n)!)} µs/request`,
  );
}
console.log(calibrationLine(judge(ceiling.target, ceiling.runs, totals)));
collector.close();
await cleanup();
process.exit(0);
