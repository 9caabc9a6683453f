import { z } from 'zod';
import { usersContract } from '../../lib/contracts/users.ts';
import { adminOnly, bearer, firebaseIdToken, selfOnly, selfOrAdmin } from '../auth/guards.ts';
import { signAccessToken } from '../auth/jwt.ts';
import { contractRouter } from '../http/contract-router.ts';
import { ApiError } from '../http/errors.ts';
import { conflict, forbidden, notFound, unauthenticated } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { pageAsk } from '../db/paging.ts';
import type { Deps } from '../types.ts';
import { LIST_PAGE_SIZE } from '../../lib/limits.ts';
import type { UsersService } from './users.service.ts';

const OWNERS_ONLY = "Only the shop's owners (ADMIN_EMAILS) can make or remove admins.";
const OWNER_KEPT = "The shop's owners (ADMIN_EMAILS) cannot be deleted.";

// A cursor's key: sign-up microseconds (as text) and email, checked before it reaches SQL.
const userKeySchema = z.tuple([z.string().regex(/^-?\d{1,16}$/), z.string().min(1).max(320)]);

export function usersRoutes(deps: Deps, users: UsersService) {
  return (
    contractRouter(deps)
      // Token exchange: only a valid Firebase ID token for this very email gets our access token.
      .on(
        usersContract.signIn,
        firebaseIdToken,
        rateLimit(deps, { name: 'sign-in', points: deps.config.signInRateLimit, windowMs: 60_000, by: 'ip' }),
        async (c, { params: { email } }) => {
          const idToken = bearer(c);
          if (!idToken) throw unauthenticated('A Firebase ID token is required');
          const identity = await deps.identity.verifyIdToken(idToken);
          if (!identity || identity.email !== email) throw unauthenticated('The sign-in token is invalid or expired');
          await users.upsertOnSignIn(identity);
          // The token names the Firebase account too: once another account holds this email, it stops working.
          return { token: await signAccessToken(deps.jwtSecret, email, deps.now().getTime(), identity.uid) };
        },
      )
      .on(usersContract.isAdmin, selfOrAdmin(deps), async (_c, { params }) => ({
        admin: await users.isAdmin(params.email),
      }))
      .on(usersContract.profile, selfOrAdmin(deps), async (_c, { params }) => {
        const user = await users.get(params.email);
        if (!user) throw notFound('User');
        return user;
      })
      .on(usersContract.update, selfOnly(deps), async (_c, { params, body }) => {
        const matchedCount = await users.update(params.email, body);
        return { acknowledged: true, matchedCount, modifiedCount: matchedCount };
      })
      // With limit, cursor or a search, a page and how many match; without, every user (the spec's array).
      .on(usersContract.list, adminOnly(deps), async (_c, { query }) => {
        const ask = pageAsk(query, userKeySchema);
        if (query.q !== undefined) return users.page(ask ?? { limit: LIST_PAGE_SIZE }, query.q);
        return ask ? users.page(ask) : users.list();
      })
      .on(usersContract.remove, adminOnly(deps), async (c, { params: { email } }) => {
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
        return { acknowledged: true, deletedCount: 1 };
      })
      .on(usersContract.makeAdmin, adminOnly(deps), async (c, { params }) => {
        const matchedCount = await users.makeAdmin(c.get('user'), params.email);
        if (matchedCount === 'not owner') throw forbidden(OWNERS_ONLY);
        if (!matchedCount) throw notFound('User');
        return { acknowledged: true, matchedCount, modifiedCount: matchedCount };
      }).app
  );
}
