// The ceiling of a Node server: a bare node:http server answering, per path, the bytes and headers our
// server answered (JSON for the API, a page's brotli bytes for static), and `/__calibrate` a 2-byte body
// (the load generator's own ceiling), and `POST /__rush` a 201 (the purchase rush's floor). Started by
// bare.ts as `node bare-server.ts <port> <responses.json>`; says "ready" over IPC.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Stored {
  /** base64 */
  body: string;
  headers: Record<string, string>;
}

const [port, file] = process.argv.slice(2);
const responses = new Map<string, { body: Buffer; headers: string[] }>();
for (const [p, r] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Stored>)) {
  const body = Buffer.from(r.body, 'base64');
  responses.set(p, { body, headers: [...Object.entries(r.headers).flat(), 'Content-Length', String(body.length)] });
}
responses.set('/__calibrate', {
  body: Buffer.from('ok'),
  headers: ['Content-Type', 'text/plain', 'Content-Length', '2'],
});

const server = createServer((req, res) => {
  // `POST /__rush`: the purchase rush's floor, a booking answered 201 as soon as its body is read.
  if (req.method === 'POST' && req.url === '/__rush') {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': '23' });
      res.end('{"insertedId":"bench0"}');
    });
    return;
  }
  const r = responses.get(req.url ?? '');
  if (!r) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.writeHead(200, r.headers);
  res.end(r.body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
