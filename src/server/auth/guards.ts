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
export const signedIn = (deps: Deps): MiddlewareHandler<AppEnv> =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearer(c);
    if (!token) throw unauthorized('Please log in to continue');
    const email = await verifyAccessToken(deps.jwtSecret, token);
    if (!email) throw unauthorized();
    const [user] = await deps.db.query<CurrentUser>('SELECT email, name, role FROM users WHERE email = $1', [email]);
    if (!user) throw unauthorized('This account no longer exists');
    c.set('user', user);
    await next();
  });

/** Admins only (403 for anyone else signed in). */
export const adminOnly = (deps: Deps): MiddlewareHandler<AppEnv>[] => [
  signedIn(deps),
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.get('user').role !== 'admin') throw forbidden('Admins only');
    await next();
  }),
];

/** The user named by the :email path parameter, or an admin. */
export const selfOrAdmin = (deps: Deps): MiddlewareHandler<AppEnv>[] => [
  signedIn(deps),
  createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get('user');
    if (user.role !== 'admin' && user.email !== pathEmail(c)) throw forbidden();
    await next();
  }),
];

/** The user named by the :email path parameter, only. */
export const selfOnly = (deps: Deps): MiddlewareHandler<AppEnv>[] => [
  signedIn(deps),
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.get('user').email !== pathEmail(c)) throw forbidden();
    await next();
  }),
];

export function pathEmail(c: Context): string {
  return (c.req.param('email') ?? '')
    .trim()
    .toLowerCase();
}
