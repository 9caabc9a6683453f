// Run by search-index-gc.test.ts as `node --trace-gc-nvp search-then-serve.ts`: builds the search index of
// 10,000 tools, prints BUILT, then answers 20,000 keep-alive HTTP requests in this process, as a store does
// after start-up. The test reads V8's young-generation collections after BUILT from stderr/stdout.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSearchFiles } from '../../../src/server/host/search-index.ts';

const tools = Array.from({ length: 10_000 }, (_, i) => ({
  _id: i.toString(16).padStart(24, '0'),
  name: `Probe hammer ${i}`,
  description: `A forged hammer for the probe, number ${i}.`,
}));
await buildSearchFiles(tools);
console.log('BUILT');

const server = createServer((_req, res) => {
  res.writeHead(200, ['Content-Type', 'application/json', 'Content-Length', '2']);
  res.end('{}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const get = () =>
  new Promise<void>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    })
      .on('error', reject)
      .end();
  });
await Promise.all(
  Array.from({ length: 8 }, async () => {
    for (let i = 0; i < 2_500; i++) await get();
  }),
);
console.log('DONE');
agent.destroy();
server.close();
