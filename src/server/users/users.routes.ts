import { Hono } from 'hono';
import { emailSchema, profileUpdateSchema } from '../../lib/schemas';
import { adminOnly, bearer, pathEmail, selfOnly, selfOrAdmin } from '../auth/guards';
import { signAccessToken } from '../auth/jwt';
import { conflict, notFound, unauthorized } from '../http/errors';
import { rateLimit } from '../http/rate-limit';
import { jsonBody, parse } from '../http/validate';
import type { AppEnv, Deps } from '../types';
import type { UsersService } from './users.service';

export function usersRoutes(deps: Deps, users: UsersService) {
  const emailParam = (c: Parameters<typeof pathEmail>[0]) => parse(emailSchema, pathEmail(c));
  return (
    new Hono<AppEnv>()
      // Token exchange: only a valid Firebase ID token for this very email gets our access token.
      .put('/user/:email', rateLimit('sign-in', deps.config.signInRateLimit, 60_000), async (c) => {
        const email = emailParam(c);
        const idToken = bearer(c);
        if (!idToken) throw unauthorized('A Firebase ID token is required');
        const identity = await deps.identity.verifyIdToken(idToken);
        if (!identity || identity.email !== email) throw unauthorized('The sign-in token is invalid or expired');
        await users.upsertOnSignIn(identity);
        return c.json({ token: await signAccessToken(deps.jwtSecret, email, deps.now().getTime()) });
      })
      .get('/admin/:email', selfOrAdmin(deps), async (c) => {
        const user = await users.get(emailParam(c));
        return c.json({ admin: user?.role === 'admin' });
      })
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
      .get('/allusers', adminOnly(deps), async (c) => c.json(await users.list()))
      .delete('/allusers/dlt/:email', adminOnly(deps), async (c) => {
        const result = await users.remove(emailParam(c));
        if (result.lastAdmin) throw conflict('The store needs at least one admin');
        if (!result.deleted) throw notFound('User');
        if (result.uid) await deps.identity.deleteAccount(result.uid);
        return c.json({ acknowledged: true, deletedCount: result.deleted });
      })
      .put('/allusers/makeadmin/:email', adminOnly(deps), async (c) => {
        const matchedCount = await users.makeAdmin(emailParam(c));
        if (!matchedCount) throw notFound('User');
        return c.json({ acknowledged: true, matchedCount, modifiedCount: matchedCount });
      })
  );
}
