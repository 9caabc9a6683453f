import { createServer } from 'node:net';

/** Resolves when host:port can be bound, else rejects with a one-line message. */
export function assertPortFree(host: string, port: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', () =>
      reject(
        new Error(
          `Port ${port} on ${host} (${what}) is already in use. Stop the other process or choose another port.`,
        ),
      ),
    );
    server.listen(port, host, () => server.close(() => resolve()));
  });
}
