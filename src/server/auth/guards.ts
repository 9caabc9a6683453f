// Authorization rules, used in each route definition so the rule is visible where the route is.
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { forbidden, unauthorized } from '../http/errors';
import type { AppEnv, CurrentUser, Deps } from '../types';
import { verifyAccessToken } from './jwt';

export function bearer(c: Context): string | null {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/** Signed in: a valid access token whose user still exists. The role always comes from the database. */
async function authenticate(c: Context<AppEnv>, deps: Deps): Promise<CurrentUser> {
  const token = bearer(c);
  if (!token) throw unauthorized('Please log in to continue');
  const email = await verifyAccessToken(deps.jwtSecret, token);
  if (!email) throw unauthorized();
  const [user] = await deps.db.query<CurrentUser>('SELECT email, name, role FROM users WHERE email = $1', [email]);
  if (!user) throw unauthorized('This account no longer exists');
  c.set('user', user);
  return user;
}

const guard = (deps: Deps, allow: (user: CurrentUser, c: Context<AppEnv>) => boolean, refusal?: string): MiddlewareHandler<AppEnv> =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = await authenticate(c, deps);
    if (!allow(user, c)) throw forbidden(refusal);
    await next();
  });

/** Any signed-in user. */
export const signedIn = (deps: Deps) => guard(deps, () => true);
/** Admins only (403 for anyone else signed in). */
export const adminOnly = (deps: Deps) => guard(deps, (user) => user.role === 'admin', 'Admins only');
/** The user named by the :email path parameter, or an admin. */
export const selfOrAdmin = (deps: Deps) => guard(deps, (user, c) => user.role === 'admin' || user.email === pathEmail(c));
/** The user named by the :email path parameter, only. */
export const selfOnly = (deps: Deps) => guard(deps, (user, c) => user.email === pathEmail(c));

export function pathEmail(c: Context): string {
  return (c.req.param('email') ?? '').trim().toLowerCase();
}
