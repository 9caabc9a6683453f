// A route's contract: what one API call takes (path parameters, query, body) and answers, by status, as
// zod schemas (the forms' own, from src/lib/schemas.ts, and the entities' from src/lib/entities.ts).
// No server code: the server binds each contract to its guard and handler (src/server/http/contract-router.ts)
// and makes the OpenAPI document from them; the browser's client takes its types from them (only types:
// src/client/infra/api-calls.ts).
import type { z } from 'zod';
import { emailParams, idParams } from './shared.ts';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** One answer of a call. */
export interface Answer {
  description: string;
  /** The body's shape (JSON unless `type` says otherwise); none for an answer without a body. */
  schema?: z.ZodType;
  /** A body that is not JSON: its content type (text/csv, application/pdf, image/*). */
  type?: string;
  /** Sent as an attachment (Content-Disposition: attachment) for the browser to save. */
  file?: true;
}

export interface RouteContract {
  method: Method;
  /** The path under /api, with its parameters in braces: /booking/ship/{id}. */
  path: string;
  summary: string;
  description?: string;
  /**
   * A public read: the same answer for everyone, with an ETag (a repeat with If-None-Match is a 304),
   * answered again from the server's memory until what it shows changes. The light pages' client
   * (client/infra/public-api.ts) knows these calls only.
   */
  cached?: true;
  /** One schema per path parameter (each checked apart, as its own value). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: {
    schema: z.ZodType;
    /**
     * Given, the route reads the body itself: an upload (multipart), a CSV file, or JSON it must see raw
     * (a signed payload). Not given, the body is JSON read through `schema`.
     */
    type?: 'multipart/form-data' | 'text/csv' | 'application/json';
    /** The body may be left out (the spec's call sends none). */
    optional?: true;
  };
  /**
   * The answers by status: every success, and the refusals particular to this call (a 409, a 422 …). The
   * refusals any call of its kind may give (400 for bad input, 401/403 from its guard, 404 for a path that
   * names nothing, 429, 503 …) are added by the server, which knows the guard and the limits.
   */
  responses: Record<number, Answer>;
}

/** What a declaration gives besides its method, path and summary. */
type Declared = Omit<RouteContract, 'method' | 'path' | 'summary'>;

/** The parameters a path's braces imply: {id} an id, {email} an email; any other path names its own. */
type ImpliedParams<P extends string> = P extends `${string}{${string}}${string}{${string}}${string}`
  ? unknown
  : P extends `${string}{id}${string}`
    ? { params: typeof idParams }
    : P extends `${string}{email}${string}`
      ? { params: typeof emailParams }
      : unknown;

function impliedParams(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.length === 0) return undefined;
  if (names.length === 1 && names[0] === 'id') return idParams;
  if (names.length === 1 && names[0] === 'email') return emailParams;
  throw new Error(`${path}: declare its params (only a lone {id} or {email} is implied)`);
}

/**
 * Declares a contract: `put('/tools/{id}', 'Edit a product', { body, responses })`. The literal types are
 * kept (the client's types come from them), and a path's lone {id} or {email} brings its params schema.
 */
function declare<M extends Method>(method: M) {
  return <const P extends string, const D extends Declared>(path: P, summary: string, declared: D) => {
    const params = declared.params ?? impliedParams(path);
    return { method, path, summary, ...(params && { params }), ...declared } as {
      method: M;
      path: P;
      summary: string;
    } & (D extends { params: z.ZodObject } ? unknown : ImpliedParams<P>) &
      D;
  };
}
export const get = declare('get');
export const post = declare('post');
export const put = declare('put');
export const del = declare('delete');

/** A refusal this call may give, with the API's error body. */
export const refusal = (description: string): Answer => ({ description });

type OkStatus = 200 | 201 | 202 | 204;
type AnswerData<A> = A extends { file: true }
  ? Blob
  : A extends { schema: infer S extends z.ZodType }
    ? z.output<S>
    : undefined;

/** What a successful call answers (its 2xx answers' bodies). */
export type Output<C extends RouteContract> = {
  [S in keyof C['responses'] & OkStatus]: AnswerData<C['responses'][S]>;
}[keyof C['responses'] & OkStatus];

/** The body a call takes, as the client sends it. */
type BodyIn<B> = B extends { type: 'multipart/form-data' }
  ? FormData
  : B extends { type: 'text/csv' }
    ? string | Blob
    : B extends { schema: infer S extends z.ZodType }
      ? z.input<S>
      : never;

/** What a call takes, as the client gives it: `params`, `query` and `body` where the contract has them. */
export type Input<C extends RouteContract> = (C extends { params: infer P extends z.ZodType }
  ? { params: z.input<P> }
  : unknown) &
  (C extends { query: infer Q extends z.ZodType } ? { query?: Partial<z.input<Q>> } : unknown) &
  (C extends { body: infer B } ? (B extends { optional: true } ? { body?: BodyIn<B> } : { body: BodyIn<B> }) : unknown);

/** What a call takes, as the server reads it (after its schemas). */
export interface Parsed<C extends RouteContract> {
  params: C extends { params: infer P extends z.ZodType } ? z.output<P> : Record<string, never>;
  query: C extends { query: infer Q extends z.ZodType } ? z.output<Q> : Record<string, never>;
  body: C extends { body: infer B }
    ? B extends { type: string }
      ? undefined
      : B extends { schema: infer S extends z.ZodType }
        ? B extends { optional: true }
          ? z.output<S> | undefined
          : z.output<S>
        : undefined
    : undefined;
}
