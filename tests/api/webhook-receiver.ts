// A webhook receiver for the tests (API, cluster, e2e): node:http on 127.0.0.1, an ephemeral port. It
// keeps every request and answers as the test says; `verify` checks a delivery's signature as the
// Standard Webhooks spec tells a receiver to (written here from the spec, not from the store's code).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  contentType: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, any> };
  path: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Hold the answer until this settles (a slow receiver). */
  after?: Promise<unknown>;
}

/** How the receiver answers the nth request (0-based): 200 unless told otherwise. */
export type Respond = (request: Received, n: number) => number | Answer;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond: Respond;
  /** Waits until `count` requests have arrived (or fails after `ms`). */
  waitFor(count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

const header = (req: http.IncomingMessage, name: string) => String(req.headers[name] ?? '');

export async function startReceiver(respond: Respond = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    respond,
    async waitFor(count, ms = 10_000) {
      const until = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > until)
          throw new Error(`the receiver got ${received.length} of ${count} deliveries in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let payload: Received['payload'];
    try {
      payload = JSON.parse(body);
    } catch {
      payload = { type: '', timestamp: '', data: {} };
    }
    const request: Received = {
      id: header(req, 'webhook-id'),
      timestamp: header(req, 'webhook-timestamp'),
      signature: header(req, 'webhook-signature'),
      contentType: header(req, 'content-type'),
      body,
      payload,
      path: req.url ?? '',
    };
    received.push(request);
    const given = receiver.respond(request, received.length - 1);
    const answer = typeof given === 'number' ? { status: given } : given;
    await answer.after;
    res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/**
 * Standard Webhooks verification: the secret's base64 after `whsec_` is the key; the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`; webhook-signature is a space-separated list of
 * `v1,<base64 HMAC-SHA256>`, any of which may match; the timestamp must be within 5 minutes of now.
 */
export function verify(
  secret: string,
  request: Pick<Received, 'id' | 'timestamp' | 'signature' | 'body'>,
  now = Date.now(),
): boolean {
  if (!secret.startsWith('whsec_') || !request.id || !/^\d+$/.test(request.timestamp)) return false;
  if (Math.abs(now / 1000 - Number(request.timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${request.id}.${request.timestamp}.${request.body}`).digest();
  return request.signature.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
