// Reading input safely: malformed JSON, a wrong content type or a bad field is a 4xx, never a 500.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, badRequest, zodToApiError } from './errors';

const MAX_JSON_BYTES = 64 * 1024;

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json');
  }
  const raw = await c.req.text();
  if (raw.length > MAX_JSON_BYTES) throw new ApiError(413, 'too_large', 'Request body is too large');
  let data: unknown;
  let nul = false;
  try {
    // PostgreSQL text cannot hold U+0000: storing one fails deep in the driver, so refuse it here.
    data = JSON.parse(raw, (_key, value) => {
      if (typeof value === 'string' && value.includes('\u0000')) nul = true;
      return value;
    });
  } catch {
    throw badRequest('Malformed JSON body');
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw badRequest('Body must be a JSON object');
  if (nul) throw badRequest('Text must not contain NUL characters');
  return parse(schema, data);
}

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw zodToApiError(result.error);
  return result.data;
}
