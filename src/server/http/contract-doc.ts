// A bound route's entry in the OpenAPI document (meta/openapi.ts): its contract's name in apiContracts
// (operationId and tag), its guard's security and rule in words, its rate limit, and every status it
// may answer with: its contract's, and the refusals its guard, input and limits bring (the tests' check
// of every answer, http/contract-check.ts, holds it to the same list).
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { MiddlewareHandler } from 'hono';
import { apiContracts } from '../../lib/contracts/api.ts';
import type { Answer, RouteContract } from '../../lib/contracts/route.ts';
import { apiErrorSchema } from '../../lib/contracts/shared.ts';
import type { Access, Guard } from '../auth/guards.ts';
import type { AppEnv } from '../types.ts';
import type { RateLimitRule } from './rate-limit.ts';

export type Middleware = MiddlewareHandler<AppEnv> & { rateLimit?: RateLimitRule };

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

/** Every status the call may answer with: its contract's, and those its guard, input and limits bring. */
export function statuses(contract: RouteContract, guard: Guard, middleware: Middleware[]): Map<number, Answer> {
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

export function document(
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
