// One delivery attempt over HTTP: POST the signed body to the endpoint, to the address the guard checked,
// with a deadline for the whole exchange, no redirect followed (a 3xx is a failure: the receiver must
// give its real URL) and at most MAX_RESPONSE_BYTES of the answer read.
import http from 'node:http';
import https from 'node:https';
import { deliveryAddress, pinnedLookup, type GuardOptions } from './address-guard.ts';

/** What the log keeps of an answer: enough to see why a receiver refused. */
const MAX_RESPONSE_BYTES = 4096;
const EXCERPT_CHARS = 300;

export interface Attempt {
  ok: boolean;
  /** The receiver's HTTP status; undefined when it gave none (refused, timed out, blocked). */
  status?: number;
  ms: number;
  /** Why it failed, in words for the delivery log. */
  error?: string;
}

export interface SendOptions extends GuardOptions {
  timeoutMs: number;
}

export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<Attempt> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    const url = new URL(target);
    // The name's resolution counts against the deadline too (a resolver that hangs is no answer).
    const expired = new Promise<never>((_, reject) =>
      deadline.addEventListener('abort', () => reject(deadline.reason), { once: true }),
    );
    expired.catch(() => {});
    const pinned = await Promise.race([deliveryAddress(url, options), expired]);
    const { status, excerpt, location } = await exchange(url, body, headers, pinned, deadline);
    if (status >= 200 && status < 300) return { ok: true, status, ms: took() };
    const why =
      status >= 300 && status < 400
        ? `redirects are not followed${location ? ` (Location: ${location.slice(0, 200)})` : ''}`
        : `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`;
    return { ok: false, status, ms: took(), error: why };
  } catch (error) {
    const message = deadline.aborted ? `no answer within ${options.timeoutMs / 1000} s` : (error as Error).message;
    return { ok: false, ms: took(), error: message.slice(0, 500) };
  }
}

function exchange(
  url: URL,
  body: string,
  headers: Record<string, string>,
  pinned: { address: string; family: 4 | 6 },
  signal: AbortSignal,
): Promise<{ status: number; excerpt: string; location?: string }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: pinnedLookup(pinned),
      // A connection of its own: a pooled socket would skip the check of the address this attempt resolved.
      agent: false,
      signal,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const text = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim();
        resolve({
          status: response.statusCode ?? 0,
          excerpt: text.slice(0, EXCERPT_CHARS),
          location: typeof response.headers.location === 'string' ? response.headers.location : undefined,
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (size >= MAX_RESPONSE_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
        // Enough read: the status is known, the rest is not wanted (a receiver cannot make us hold more).
        if (size >= MAX_RESPONSE_BYTES) {
          response.destroy();
          finish();
        }
      });
      response.on('end', finish);
      response.on('error', reject);
    });
    request.end(body);
  });
}
