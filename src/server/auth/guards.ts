// Authorization rules, used in each route definition so the rule is visible where the route is.
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { forbidden, unauthenticated } from '../errors.ts';
import type { AppEnv, CurrentUser, Deps } from '../types.ts';
import { verifyAccessToken } from './jwt.ts';

export function bearer(c: Context): string | null {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * Signed in: a valid access token whose user still exists and still belongs to the Firebase account
 * the token was issued to (an account deleted and made again for the same email starts afresh).
 * The role always comes from the database.
 */
async function authenticate(c: Context<AppEnv>, deps: Deps): Promise<CurrentUser> {
  const token = bearer(c);
  if (!token) throw unauthenticated('Please log in to continue');
  const claims = await verifyAccessToken(deps.jwtSecret, token);
  if (!claims) throw unauthenticated();
  const user = await deps.signedInUser(claims.email);
  if (!user || user.uid !== claims.uid) throw unauthenticated('This account no longer exists');
  c.set('user', user);
  return user;
}

/**
 * Who may call a route, as its definition says (contract-router.ts puts it in the OpenAPI document too):
 * the rule's name, and the check that enforces it before the route runs (none: anyone, or a rule the
 * route checks itself).
 */
export interface Guard {
  readonly access: Access;
  readonly check?: MiddlewareHandler<AppEnv>;
}
export type Access =
  'anyone' | 'signedIn' | 'adminOnly' | 'selfOrAdmin' | 'selfOnly' | 'firebaseIdToken' | 'stripeSignature';

const guard = (
  deps: Deps,
  access: Access,
  allow: (user: CurrentUser, c: Context<AppEnv>) => boolean,
  refusal?: string,
): Guard => ({
  access,
  check: createMiddleware<AppEnv>(async (c, next) => {
    const user = await authenticate(c, deps);
    if (!allow(user, c)) throw forbidden(refusal);
    await next();
  }),
});

/**
 * Who calls a public read, when it says (a valid bearer token): the read may show an admin more. An
 * invalid or stale token reads as anonymous, as the call needs none.
 */
export async function viewer(c: Context<AppEnv>, deps: Deps): Promise<CurrentUser | null> {
  if (!bearer(c)) return null;
  return authenticate(c, deps).catch(() => null);
}

/** Anyone, signed in or not. */
export const anyone: Guard = { access: 'anyone' };
/** Any signed-in user. */
export const signedIn = (deps: Deps) => guard(deps, 'signedIn', () => true);
/** Admins only (403 for anyone else signed in). */
export const adminOnly = (deps: Deps) => guard(deps, 'adminOnly', (user) => user.role === 'admin', 'Admins only');
/** The user named by the :email path parameter, or an admin. */
export const selfOrAdmin = (deps: Deps) =>
  guard(deps, 'selfOrAdmin', (user, c) => user.role === 'admin' || user.email === pathEmail(c));
/** The user named by the :email path parameter, only. */
export const selfOnly = (deps: Deps) => guard(deps, 'selfOnly', (user, c) => user.email === pathEmail(c));
/**
 * The bearer is a Firebase ID token for the :email path parameter (the sign-in exchange), which the
 * route checks itself, after its rate limit has counted the attempt.
 */
export const firebaseIdToken: Guard = { access: 'firebaseIdToken' };
/** Stripe's signature over the body, which the route checks itself (it needs the raw body). */
export const stripeSignature: Guard = { access: 'stripeSignature' };

export function pathEmail(c: Context): string {
  return (c.req.param('email') ?? '').trim().toLowerCase();
}
