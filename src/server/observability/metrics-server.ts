// Where /metrics is served: its own port bound to loopback (METRICS_PORT), or the public port with
// the bearer token (METRICS_TOKEN). Anything else gets the site's ordinary 404, so it is not advertised.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { METRICS_CONTENT_TYPE, metricsAuthorized, metricsText } from './metrics.ts';

async function writeMetrics(res: ServerResponse): Promise<void> {
  try {
    const text = await metricsText();
    res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
    res.end(text);
  } catch (error) {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(`metrics failed: ${(error as Error).message}`);
  }
}

/**
 * For the public server: answers GET /metrics and returns true when the request carries the token;
 * returns false otherwise (the caller answers as for any unknown path).
 */
export function serveMetricsWithToken(req: IncomingMessage, res: ServerResponse, token: string | undefined): boolean {
  if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics' || !metricsAuthorized(req, token)) return false;
  void writeMetrics(res);
  return true;
}

/** A plain HTTP server on 127.0.0.1:port answering only GET /metrics (never another interface). */
export function startMetricsServer(port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') return void writeMetrics(res);
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('Not found');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
