import { Hono } from 'hono';
import { z } from 'zod';
import { emailSchema, profileUpdateSchema, userListQuerySchema } from '../../lib/schemas.ts';
import { adminOnly, bearer, pathEmail, selfOnly, selfOrAdmin } from '../auth/guards.ts';
import { signAccessToken } from '../auth/jwt.ts';
import { ApiError, conflict, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { logger } from '../logger.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { jsonBody, parse } from '../http/validate.ts';
import { decodeCursor, pageAsk } from '../http/paging.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { UsersService } from './users.service.ts';

const OWNERS_ONLY = "Only the shop's owners (ADMIN_EMAILS) can make or remove admins.";
const OWNER_KEPT = "The shop's owners (ADMIN_EMAILS) cannot be deleted.";

// A cursor's key: sign-up microseconds (as text) and email, checked before it reaches SQL.
const userKeySchema = z.tuple([z.string().regex(/^-?\d{1,16}$/), z.string().min(1).max(320)]);

export function usersRoutes(deps: Deps, users: UsersService) {
  const emailParam = (c: Parameters<typeof pathEmail>[0]) => parse(emailSchema, pathEmail(c));
  return (
    new Hono<AppEnv>()
      // Token exchange: only a valid Firebase ID token for this very email gets our access token.
      .put(
        '/user/:email',
        rateLimit(deps, { name: 'sign-in', points: deps.config.signInRateLimit, windowMs: 60_000, by: 'ip' }),
        async (c) => {
          const email = emailParam(c);
          const idToken = bearer(c);
          if (!idToken) throw unauthorized('A Firebase ID token is required');
          const identity = await deps.identity.verifyIdToken(idToken);
          if (!identity || identity.email !== email) throw unauthorized('The sign-in token is invalid or expired');
          await users.upsertOnSignIn(identity);
          // The token names the Firebase account too: once another account holds this email, it stops working.
          return c.json({ token: await signAccessToken(deps.jwtSecret, email, deps.now().getTime(), identity.uid) });
        },
      )
      .get('/admin/:email', selfOrAdmin(deps), async (c) => c.json({ admin: await users.isAdmin(emailParam(c)) }))
      .get('/userprofile/:email', selfOrAdmin(deps), async (c) => {
        const user = await users.get(emailParam(c));
        if (!user) throw notFound('User');
        return c.json(user);
      })
      .put('/userupdate/:email', selfOnly(deps), async (c) => {
        const update = await jsonBody(c, profileUpdateSchema);
        const matchedCount = await users.update(emailParam(c), update);
        return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
      })
      // With limit, cursor or a search, a page and how many match; without, every user (the spec's array).
      .get('/allusers', adminOnly(deps), async (c) => {
        const query = c.req.query();
        if (query.q === undefined) {
          const ask = pageAsk(query, userKeySchema);
          return c.json(ask ? await users.page(ask) : await users.list());
        }
        const { q, limit, cursor } = parse(userListQuerySchema, query);
        return c.json(await users.page({ limit, after: cursor === undefined ? undefined : decodeCursor(cursor, userKeySchema) }, q));
      })
      .delete('/allusers/dlt/:email', adminOnly(deps), async (c) => {
        const email = emailParam(c);
        const outcome = await users.remove(c.get('user'), email, async (uid) => {
          try {
            await deps.identity.deleteAccount(uid);
          } catch (error) {
            const reason = (error as { code?: string; message?: string }).code ?? (error as Error).message;
            logger.error({ err: error, email }, 'could not delete the sign-in account; the user was kept');
            throw new ApiError(
              502,
              'identity_unavailable',
              `The user was kept: their sign-in account could not be deleted (${reason}). Please try again.`,
            );
          }
        });
        if (outcome === 'owner') throw forbidden(OWNER_KEPT);
        if (outcome === 'not owner') throw forbidden(OWNERS_ONLY);
        if (outcome === 'last admin') throw conflict('The store needs at least one admin');
        if (outcome === 'missing') throw notFound('User');
        return c.json({ acknowledged: true, deletedCount: 1 });
      })
      .put('/allusers/makeadmin/:email', adminOnly(deps), async (c) => {
        const matchedCount = await users.makeAdmin(c.get('user'), emailParam(c));
        if (matchedCount === 'not owner') throw forbidden(OWNERS_ONLY);
        if (!matchedCount) throw notFound('User');
        return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
      })
  );
}
