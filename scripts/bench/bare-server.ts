// The API's ceiling: a bare node:http server answering the JSON bytes our API answered, per path.
// Started by parts/api.ts as `node bare-server.ts <port> <responses.json>`; says "ready" over IPC.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, file] = process.argv.slice(2);
const responses = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).map(([p, body]) => [
    p,
    Buffer.from(body),
  ]),
);
const server = createServer((req, res) => {
  const body = responses.get(req.url ?? '');
  if (!body) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
