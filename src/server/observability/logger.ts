// The process's one logger: JSON lines to stdout in batches (log-batches.ts). Every line written while
// a request is handled carries its request id (the incoming X-Request-Id when it looks like one),
// API errors included, through AsyncLocalStorage. Authorization headers, tokens and cards are never logged.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';
import { batchedStdout } from './log-batches.ts';
import { tracer } from './tracing.ts';

interface RequestContext {
  reqId: string;
}
const context = new AsyncLocalStorage<RequestContext>();

const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info');
/** Where every line goes; flushed before a message someone waits for, and at exit. */
export const logOut = batchedStdout();

export const logger = pino(
  {
    level,
    base: undefined,
    redact: ['req.headers.authorization', 'authorization', 'password', 'token', 'card'],
    mixin: () => {
      const reqId = context.getStore()?.reqId;
      // With tracing on, every line also names its trace, so a log line leads to its trace and back.
      const traceId = tracer?.traceId();
      return reqId ? (traceId ? { reqId, traceId } : { reqId }) : traceId ? { traceId } : {};
    },
  },
  logOut,
);

/** Runs fn with reqId on every log line it (and what it awaits) writes. */
export const withRequestId = <T>(reqId: string, fn: () => T): T => context.run({ reqId }, fn);

const GOOD_ID = /^[\w.:-]{1,128}$/;
/** A proxy's X-Request-Id is kept, so one id follows a request through nginx and us; junk is replaced. */
export const requestIdFrom = (incoming: string | string[] | undefined, make: () => string): string =>
  typeof incoming === 'string' && GOOD_ID.test(incoming) ? incoming : make();

/**
 * A request's access log line, written by hand: this runs per request. The request id (from
 * requestIdFrom: word characters, '.', ':' and '-') and the method (a token, or Node's parser refuses
 * the request) need no escaping; the path (without its query) and the address do.
 */
export function accessLine(
  requestId: string,
  ip: string,
  method: string,
  url: string,
  status: number,
  ms: number,
  traceId?: string,
) {
  const query = url.indexOf('?');
  const path = JSON.stringify(query < 0 ? url : url.slice(0, query));
  // A trace id is 32 hex digits from our own tracer: no escaping either.
  const trace = traceId ? `,"traceId":"${traceId}"` : '';
  return `{"level":30,"time":${Date.now()},"reqId":"${requestId}"${trace},"ip":${JSON.stringify(ip)},"method":"${method}","path":${path},"status":${status},"ms":${ms},"msg":"request"}\n`;
}
