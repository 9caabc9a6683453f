// Reading input safely: malformed JSON, a wrong content type or a bad field is a 4xx, never a 500.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, zodToApiError } from './errors.ts';
import { invalid } from '../errors.ts';

const MAX_JSON_BYTES = 64 * 1024;

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json');
  }
  const raw = (await readBounded(c.req.raw, MAX_JSON_BYTES)).toString('utf8');
  let data: unknown;
  let nul = false;
  try {
    // PostgreSQL text cannot hold U+0000: storing one fails deep in the driver, so refuse it here.
    data = JSON.parse(raw, (_key, value) => {
      if (typeof value === 'string' && value.includes('\u0000')) nul = true;
      return value;
    });
  } catch {
    throw invalid('Malformed JSON body');
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw invalid('Body must be a JSON object');
  if (nul) throw invalid('Text must not contain NUL characters');
  return parse(schema, data);
}

const tooLarge = () => new ApiError(413, 'too_large', 'Request body is too large');

/**
 * The body's bytes, read no further than `max`: a declared length over it is refused before reading,
 * and a body without one (chunked) is read until it passes the limit, then cancelled, so a client
 * cannot make the server hold or wait for more than `max` bytes. `refuse` makes the 413.
 */
export async function readBounded(
  request: Request,
  max: number,
  refuse: () => ApiError = tooLarge,
): Promise<Buffer<ArrayBuffer>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > max) {
    await request.body?.cancel().catch(() => {});
    throw refuse();
  }
  // A declared length within the limit is all the body can be on Node (its parser holds the client to
  // it), so the body is read whole: @hono/node-server then reads the socket directly, without building
  // a web Request and stream per call. (Asking for request.body would build them.)
  if (declared !== null) {
    const whole = Buffer.from(await request.arrayBuffer());
    if (whole.length > max) throw refuse();
    return whole;
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw refuse();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw zodToApiError(result.error);
  return result.data;
}
