// Binds the API's contracts (src/lib/contracts/) to their handlers. Each route definition names its
// contract, its guard (the authorization rule, auth/guards.ts) and any rate limit; from those one call
// here registers the route with Hono, reads its input through the contract's schemas (with the checks
// and messages of http/validate.ts), answers with the contract's success status, and enters the call in
// the OpenAPI document (http/openapi.ts) with its security and every refusal it may give. With
// config.checkResponses (tests), every answer is checked against its contract too: a status it does not
// declare, or a body its schema refuses, turns the answer into a loud 500.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { apiContracts } from '../../lib/contracts/api.ts';
import type { Answer, Output, Parsed, RouteContract } from '../../lib/contracts/route.ts';
import { apiErrorSchema } from '../../lib/contracts/shared.ts';
import type { Access, Guard } from '../auth/guards.ts';
import { logger } from '../logger.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { RateLimitRule } from './rate-limit.ts';
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

type Middleware = MiddlewareHandler<AppEnv> & { rateLimit?: RateLimitRule };

/** Each contract's group and name in apiContracts: the document's tag and operationId, the client's api.<group>.<name>. */
const names = new Map<RouteContract, { group: string; name: string }>();
for (const [group, contracts] of Object.entries(apiContracts))
  for (const [name, contract] of Object.entries(contracts as Record<string, RouteContract>))
    names.set(contract, { group, name });

const ACCESS: Record<Access, { security?: string; says: string; refusals: number[] }> = {
  anyone: { says: 'Anyone may call it.', refusals: [] },
  signedIn: { security: 'bearer', says: 'Signed in.', refusals: [401] },
  adminOnly: { security: 'bearer', says: 'Admins only.', refusals: [401, 403] },
  selfOrAdmin: { security: 'bearer', says: 'The user named in the path, or an admin.', refusals: [401, 403] },
  selfOnly: { security: 'bearer', says: 'The user named in the path only.', refusals: [401, 403] },
  firebaseIdToken: {
    security: 'firebaseIdToken',
    says: 'A Firebase ID token for the email in the path, as the bearer.',
    refusals: [401],
  },
  stripeSignature: { security: 'stripeSignature', says: "Stripe's signature of the body.", refusals: [400] },
};

/** The refusals every call of a kind may give, in words. */
const REFUSALS: Record<number, string> = {
  400: 'Bad input: `error.fields` names each field and its problem',
  401: 'Not signed in, or the access token is no longer valid',
  403: 'Signed in, but not allowed to do this',
  404: 'Nothing found',
  413: 'The body is too large',
  415: 'The body is not of the type this call takes',
  429: 'Too many calls: try again after Retry-After seconds',
  503: "The store's database is unavailable or cannot save now: try again after Retry-After seconds",
};

const CACHED = 'A public read: the same answer for everyone, with an ETag (ask again with If-None-Match for a 304).';

/** A rate limit's window in words. */
const per = (ms: number) => (ms === 60_000 ? 'a minute' : ms === 3_600_000 ? 'an hour' : `in ${ms / 60_000} minutes`);

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The status a handler's plain answer goes out with: the contract's first success. */
function successStatus(contract: RouteContract): number {
  const ok = Object.keys(contract.responses)
    .map(Number)
    .find((s) => s >= 200 && s < 300);
  if (ok === undefined) throw new Error(`${contract.method} ${contract.path}: its contract declares no success`);
  return ok;
}

/** Every status the call may answer with: its contract's, and those its guard, input and limits bring. */
function statuses(contract: RouteContract, guard: Guard, middleware: Middleware[]): Map<number, Answer> {
  const all = new Map<number, Answer>(Object.entries(contract.responses).map(([s, a]) => [Number(s), a]));
  const add = (status: number) => {
    if (!all.has(status)) all.set(status, { description: REFUSALS[status] });
  };
  for (const status of ACCESS[guard.access].refusals) add(status);
  if (contract.params || contract.query || contract.body) add(400);
  if (contract.body) {
    add(413);
    add(415);
  }
  if (middleware.some((m) => m.rateLimit)) add(429);
  if (contract.cached) all.set(304, { description: 'Not modified: the answer has the ETag sent as If-None-Match' });
  add(503);
  return all;
}

function document(
  contract: RouteContract,
  guard: Guard,
  middleware: Middleware[],
  answers: Map<number, Answer>,
): RouteConfig {
  const named = names.get(contract);
  if (!named)
    throw new Error(
      `${contract.method} ${contract.path}: its contract is not in apiContracts (src/lib/contracts/api.ts)`,
    );
  const access = ACCESS[guard.access];
  const limits = middleware.flatMap((m) =>
    m.rateLimit
      ? [
          `At most ${m.rateLimit.points} calls ${per(m.rateLimit.windowMs)} per ${m.rateLimit.by === 'ip' ? 'client address' : 'user'}.`,
        ]
      : [],
  );
  const body = contract.body;
  return {
    method: contract.method,
    path: contract.path,
    operationId: `${named.group}.${named.name}`,
    tags: [named.group],
    summary: contract.summary,
    description: [contract.description, access.says, contract.cached ? CACHED : undefined, ...limits]
      .filter(Boolean)
      .join('\n\n'),
    ...(access.security ? { security: [{ [access.security]: [] }] } : {}),
    'x-access': guard.access,
    request: {
      params: contract.params,
      query: contract.query,
      body: body && {
        required: !body.optional,
        content: { [body.type ?? 'application/json']: { schema: body.schema } },
      },
    },
    responses: Object.fromEntries(
      [...answers].map(([status, answer]) => {
        const schema = answer.schema ?? (status >= 400 ? apiErrorSchema : undefined);
        const content = schema
          ? { [answer.type ?? 'application/json']: { schema } }
          : answer.type
            ? { [answer.type]: {} }
            : undefined;
        return [String(status), { description: answer.description, ...(content ? { content } : {}) }];
      }),
    ),
  };
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

const refused = (status: number, error: z.ZodError) =>
  `answered ${status} with a body its contract refuses: ${error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ')}`;

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
  const result = schema.safeParse(await res.clone().json());
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

function checker(contract: RouteContract, answers: Map<number, Answer>): MiddlewareHandler<AppEnv> {
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
