import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { ZodError } from 'zod';
import { isDatabaseUnavailable, isStorageUnavailable } from '../db/client.ts';
import { logger } from '../observability/logger.ts';
import { DomainError, invalid, type RefusalKind } from '../errors.ts';

/**
 * An error only HTTP knows (a body of the wrong type, too many requests, a payment the card did not
 * complete): JSON `{error: {code, message}}`, never a stack trace. The services throw DomainError
 * (src/server/errors.ts), turned into a status here.
 */
export class ApiError extends Error {
  // Plain fields, not parameter properties: Node runs this file with type stripping only.
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly fields?: Record<string, string>;
  constructor(status: ContentfulStatusCode, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** The one table from what a service refused to the status the client gets. */
const STATUS_OF: Record<RefusalKind, ContentfulStatusCode> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  not_possible: 422,
  upstream_failed: 502,
  unavailable: 503,
};

export const apiErrorOf = (error: DomainError): ApiError =>
  new ApiError(STATUS_OF[error.kind], error.code, error.message, error.fields);

export function zodToApiError(error: ZodError): DomainError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[String(issue.path.join('.') || '_')] ??= issue.message;
  const first = error.issues[0];
  return invalid(first ? first.message : 'Invalid input', fields);
}

export const DATABASE_UNAVAILABLE = "The store's database is unavailable right now. Please try again in a moment.";
export const STORAGE_UNAVAILABLE =
  'The store cannot save changes right now. Nothing was changed; please try again in a few minutes.';

export function onError(error: Error, c: Context) {
  let api: ApiError;
  if (error instanceof ApiError) api = error;
  else if (error instanceof DomainError) api = apiErrorOf(error);
  else if (error instanceof ZodError) api = apiErrorOf(zodToApiError(error));
  else if (error instanceof HTTPException)
    api = new ApiError(error.status as ContentfulStatusCode, 'http_error', error.message || 'Request failed');
  else if (isDatabaseUnavailable(error)) {
    // PostgreSQL restarting or out of reach: a clear 503 the client may retry; the process stays up.
    logger.warn({ err: error.message, path: c.req.path }, 'database unavailable');
    c.header('Retry-After', '5');
    api = new ApiError(503, 'database_unavailable', DATABASE_UNAVAILABLE);
  } else if (isStorageUnavailable(error)) {
    // A full or read-only disk: the write was refused whole (its transaction rolled back); the
    // store takes writes again by itself once there is room.
    logger.error(
      { err: error.message, code: (error as { code?: string }).code, path: c.req.path },
      'storage cannot take writes',
    );
    c.header('Retry-After', '30');
    api = new ApiError(503, 'storage_unavailable', STORAGE_UNAVAILABLE);
  } else {
    logger.error({ err: error, path: c.req.path }, 'unhandled API error');
    api = new ApiError(500, 'internal', 'Something went wrong on our side. Please try again.');
  }
  const body: { error: { code: string; message: string; fields?: Record<string, string> } } = {
    error: { code: api.code, message: api.message },
  };
  if (api.fields) body.error.fields = api.fields;
  return c.json(body, api.status);
}
