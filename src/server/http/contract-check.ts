// In tests (config.checkResponses), every answer checked against its contract: a status it does not
// declare, or a body its schema refuses, becomes a 500 naming the problem, so the suite fails loudly
// wherever a route drifts from its contract. A shop runs without it: it costs nothing there.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { Answer, RouteContract } from '../../lib/contracts/route.ts';
import { apiErrorSchema } from '../../lib/contracts/shared.ts';
import { logger } from '../observability/logger.ts';
import type { AppEnv } from '../types.ts';

const refused = (status: number, error: z.ZodError) =>
  `answered ${status} with a body its contract refuses: ${error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ')}`;

/** An answer's JSON, decoded first if it went compressed (http/cache.ts compresses a large body). */
async function jsonOf(res: Response): Promise<unknown> {
  const bytes = Buffer.from(await res.clone().arrayBuffer());
  const encoding = res.headers.get('content-encoding');
  const decoded = encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
  return JSON.parse(decoded.toString());
}

/** Checks an answer's status and type against the contract; the problem in words, or undefined. */
async function violation(res: Response, answer: Answer | undefined): Promise<string | undefined> {
  if (!answer) return `answered ${res.status}, which its contract does not declare`;
  const schema = answer.schema ?? (res.status >= 400 ? apiErrorSchema : undefined);
  const type = res.headers.get('content-type') ?? '';
  const expected = answer.type ?? (schema ? 'application/json' : undefined);
  if (!expected)
    return res.body === null || (await res.clone().text()) === ''
      ? undefined
      : 'sent a body its contract does not declare';
  const essence = expected.replace(/\*$/, '');
  if (!type.toLowerCase().startsWith(essence))
    return `sent ${type || 'no content type'} where its contract says ${expected}`;
  if (!schema || answer.type || answer.file) return undefined;
  const result = schema.safeParse(await jsonOf(res));
  return result.success ? undefined : refused(res.status, result.error);
}

/**
 * A JSON file streamed out (an account export), checked as its last byte leaves: a bad one ends in an
 * error. Read only as the client reads (no buffer ahead), as the route's own stream is.
 */
function checkedStream(body: ReadableStream<Uint8Array>, schema: z.ZodType, status: number, name: string) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (!done) {
          text += decoder.decode(value, { stream: true });
          return controller.enqueue(value);
        }
        const result = schema.safeParse(JSON.parse(text + decoder.decode()));
        if (result.success) return controller.close();
        const message = `${name} ${refused(status, result.error)}`;
        logger.error(`contract violation: ${message}`);
        controller.error(new Error(message));
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

export function checker(contract: RouteContract, answers: Map<number, Answer>): MiddlewareHandler<AppEnv> {
  const name = `${contract.method.toUpperCase()} ${contract.path}`;
  return async (c, next) => {
    await next();
    const { method } = c.req;
    if (method === 'HEAD' || (c.res.status === 304 && method === 'GET')) return;
    const answer = answers.get(c.res.status);
    const problem = await violation(c.res, answer);
    if (!problem) {
      if (answer?.file && answer.schema && c.res.body) {
        const { status, headers } = c.res;
        c.res = new Response(checkedStream(c.res.body, answer.schema, status, name), { status, headers });
      }
      return;
    }
    const message = `${name} ${problem}`;
    logger.error({ path: c.req.path }, `contract violation: ${message}`);
    c.res = new Response(JSON.stringify({ error: { code: 'contract_violation', message } }), {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  };
}
