// Binds the API's contracts (src/lib/contracts/) to their handlers. Each route definition names its
// contract, its guard (the authorization rule, auth/guards.ts) and any rate limit; from those one call
// here registers the route with Hono, reads its input through the contract's schemas (with the checks
// and messages of http/validate.ts), answers with the contract's success status, and enters the call in
// the OpenAPI document (contract-doc.ts) with its security and every refusal it may give. In tests,
// every answer is checked against the contract too (contract-check.ts).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { Output, Parsed, RouteContract } from '../../lib/contracts/route.ts';
import type { Guard } from '../auth/guards.ts';
import type { AppEnv, Deps } from '../types.ts';
import { checker } from './contract-check.ts';
import { document, statuses, type Middleware } from './contract-doc.ts';
import { jsonBody, parse } from './validate.ts';

/**
 * A literal (true, 'succeeded') as its base type. TypeScript widens the literals of an async callback's
 * answer in a generic call, so a handler's answer is checked for its fields and their types here, and
 * for its literal values by the tests' check of every answer (config.checkResponses).
 */
type Loose<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends Blob
        ? T
        : T extends readonly (infer U)[]
          ? Loose<U>[]
          : T extends object
            ? { [K in keyof T]: Loose<T[K]> }
            : T;

/** A route's work: its input as the contract's schemas read it; its answer, the contract's success body (or a Response). */
export type ContractHandler<C extends RouteContract> = (
  c: Context<AppEnv>,
  input: Parsed<C>,
) => Promise<Loose<Output<C>> | Response> | Loose<Output<C>> | Response;

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The status a handler's plain answer goes out with: the contract's first success. */
function successStatus(contract: RouteContract): number {
  const ok = Object.keys(contract.responses)
    .map(Number)
    .find((s) => s >= 200 && s < 300);
  if (ok === undefined) throw new Error(`${contract.method} ${contract.path}: its contract declares no success`);
  return ok;
}

/** Reads a call's input through its contract: each path parameter apart, the query, a JSON body. */
function reader<C extends RouteContract>(contract: C) {
  const params = Object.entries((contract.params?.shape ?? {}) as Record<string, z.ZodType>);
  const body = contract.body && !contract.body.type ? contract.body : undefined;
  return async (c: Context<AppEnv>): Promise<Parsed<C>> => {
    const input: { params: Record<string, unknown>; query: unknown; body: unknown } = {
      params: {},
      query: {},
      body: undefined,
    };
    for (const [name, schema] of params) input.params[name] = parse(schema, c.req.param(name));
    if (contract.query) input.query = parse(contract.query, c.req.query());
    // An optional body (the spec's call sends none) is read only when one was sent.
    if (body && (!body.optional || bodySent(c))) input.body = await jsonBody(c, body.schema);
    return input as Parsed<C>;
  };
}

const bodySent = (c: Context) =>
  c.req.header('content-type') !== undefined ||
  Number(c.req.header('content-length') ?? 0) > 0 ||
  c.req.header('transfer-encoding') !== undefined;

/** A feature's routes, bound as they are declared; `.app` to mount. */
export interface ContractRouter {
  readonly app: OpenAPIHono<AppEnv>;
  on<C extends RouteContract>(contract: C, guard: Guard, handler: ContractHandler<C>): ContractRouter;
  on<C extends RouteContract>(
    contract: C,
    guard: Guard,
    limit: Middleware,
    handler: ContractHandler<C>,
  ): ContractRouter;
}

/**
 * A feature's router: `.on(contract, guard, [rateLimit,] handler)` per route, then `.app` to mount.
 * The handler gets the input as `{params, query, body}` and answers the contract's success body (sent
 * with its status), or a Response of its own (a cached read, a file, another status).
 */
export function contractRouter(deps: Pick<Deps, 'config'>): ContractRouter {
  const app = new OpenAPIHono<AppEnv>();
  function on(contract: RouteContract, guard: Guard, ...chain: (Middleware | ContractHandler<RouteContract>)[]) {
    const handler = chain[chain.length - 1] as ContractHandler<RouteContract>;
    const middleware = chain.slice(0, -1) as Middleware[];
    const answers = statuses(contract, guard, middleware);
    app.openAPIRegistry.registerPath(document(contract, guard, middleware, answers));
    const read = reader(contract);
    const status = successStatus(contract);
    const run: MiddlewareHandler<AppEnv> = async (c) => {
      const reply = await handler(c, await read(c));
      return reply instanceof Response ? reply : c.json(reply as unknown as object, status as 200);
    };
    const steps = [
      ...(deps.config.checkResponses ? [checker(contract, answers)] : []),
      ...(guard.check ? [guard.check] : []),
      ...middleware,
      run,
    ];
    app.on(contract.method.toUpperCase(), honoPath(contract.path), ...(steps as [MiddlewareHandler<AppEnv>]));
    return router;
  }
  const router: ContractRouter = { app, on: on as ContractRouter['on'] };
  return router;
}
