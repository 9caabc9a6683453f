// A user's own account: deleting it (a flow over the users, orders and reviews modules and the
// sign-in account) and exporting everything the store keeps about them. Each module keeps its own SQL;
// this file only orders their steps.
import type { AccountExport } from '../../lib/entities.ts';
import { REAUTH_MAX_AGE_MS } from '../../lib/limits.ts';
import { messages } from '../../lib/messages.ts';
import type { VerifiedIdentity } from '../auth/identity.ts';
import { conflict, DomainError, forbidden, notFound, upstreamFailed } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import type { CheckoutFlow } from '../checkout/checkout.flow.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import type { ReviewsService } from '../reviews/reviews.service.ts';
import type { ToolsService } from '../tools/tools.service.ts';
import type { CurrentUser, Deps } from '../types.ts';
import type { UsersService } from '../users/users.service.ts';

/** Orders and reviews read per query while exporting: what the export holds in memory at once. */
export const EXPORT_PAGE_SIZE = 200;

interface Modules {
  users: UsersService;
  orders: OrdersService;
  checkout: CheckoutFlow;
  reviews: ReviewsService;
  tools: ToolsService;
}

/**
 * Why a re-authentication does not prove this user asked now, or null when it does: the ID token must
 * be valid (signature, expiry, project), name the same Firebase account and email as the session, and
 * come from a sign-in at most REAUTH_MAX_AGE_MS ago (auth_time; a later one is clock skew, not a replay).
 */
export function reauthenticationRefusal(
  user: CurrentUser,
  proof: VerifiedIdentity | null,
  now: Date,
): DomainError | null {
  if (!proof) return forbidden(messages.reauthenticationRequired, 'reauthentication_required');
  if (proof.uid !== user.uid || proof.email !== user.email) {
    return forbidden(messages.reauthenticationMismatch, 'reauthentication_mismatch');
  }
  if (now.getTime() - proof.authTime.getTime() > REAUTH_MAX_AGE_MS) {
    return forbidden(messages.reauthenticationRequired, 'reauthentication_required');
  }
  return null;
}

export function accountService(deps: Deps, { users, orders, checkout, reviews, tools }: Modules) {
  return {
    /**
     * Deletes the signed-in user's account, after checking the fresh re-authentication (idToken).
     * Unpaid orders have their payments closed first (outside the transaction: the provider is called),
     * then one transaction: the user's row and the admins locked (users.service), the unpaid orders gone
     * with their units back, the kept orders anonymised, the reviews left under their name only, the
     * sign-in account deleted (a refusal rolls it all back) and the row deleted.
     */
    async remove(user: CurrentUser, idToken: string): Promise<void> {
      // Owners are refused before anything else, whatever the proof.
      if (deps.config.adminEmails.includes(user.email)) throw forbidden(messages.ownerCannotDeleteAccount);
      const proof = await deps.identity.verifyIdToken(idToken);
      const refusal = reauthenticationRefusal(user, proof, deps.now());
      if (refusal) throw refusal;
      const uid = proof!.uid;
      const ready = await checkout.closeBuyerPayments(user.email, uid);
      let reviewsForgotten = 0;
      const outcome = await users.removeOwn(
        user,
        async (tx) => {
          if ((await orders.forgetBuyer(tx, user.email, uid, ready)) === 'changed')
            throw conflict(messages.accountOrdersChanged);
          reviewsForgotten = await reviews.forgetAuthor(tx, user.email);
        },
        async (signInUid) => {
          try {
            await deps.identity.deleteAccount(signInUid);
          } catch (error) {
            const reason = (error as { code?: string; message?: string }).code ?? (error as Error).message;
            logger.error(
              { err: error, email: user.email },
              'could not delete the sign-in account; the account was kept',
            );
            throw upstreamFailed('identity_unavailable', `${messages.accountDeleteFailed} (${reason})`);
          }
        },
      );
      if (outcome === 'owner') throw forbidden(messages.ownerCannotDeleteAccount);
      if (outcome === 'last admin') throw conflict(messages.lastAdminKept);
      if (outcome === 'missing') throw notFound('User');
      // After commit: units went back to stock (even when none did, a cheap announcement) and reviews changed.
      tools.invalidate();
      if (reviewsForgotten) deps.changes.announce('reviews');
      logger.info({ email: user.email }, 'a user deleted their account');
    },

    /**
     * The user's data as JSON text, piece by piece: the profile, then their orders and reviews a page
     * (EXPORT_PAGE_SIZE) at a time, so memory holds one page whatever the count. The profile is read
     * first, so a missing user is a 404 before anything is sent.
     */
    async export(user: CurrentUser): Promise<AsyncGenerator<string>> {
      const profile = await users.get(user.email);
      if (!profile) throw notFound('User');
      const head: Omit<AccountExport, 'orders' | 'reviews'> = {
        format: 'ironcrest-account-export',
        version: 1,
        exportedAt: deps.now().toISOString(),
        profile,
      };
      const uid = user.uid;
      // A session always names its account; one without (tests' hand-made tokens) placed no orders.
      const orderPages = uid ? orders.pagesOf(user.email, uid, EXPORT_PAGE_SIZE) : none<AccountExport['orders']>();
      const reviewPages = reviews.pagesBy(user.email, EXPORT_PAGE_SIZE);
      return (async function* () {
        // The head's fields, then the two arrays, indented as JSON.stringify(…, null, 2) would.
        yield JSON.stringify(head, null, 2).replace(/\n\}$/, ',\n  "orders": [');
        yield* elements(orderPages);
        yield ',\n  "reviews": [';
        yield* elements(reviewPages);
        yield '\n}\n';
      })();
    },
  };
}
export type AccountService = ReturnType<typeof accountService>;

/** The elements of an array at the export's second level, page by page, then its closing bracket. */
async function* elements(pages: AsyncIterable<unknown[]>): AsyncGenerator<string> {
  let count = 0;
  for await (const page of pages) {
    // Indented as JSON.stringify(…, null, 2) would at this depth.
    yield page
      .map((value) => `${count++ ? ',' : ''}\n    ${JSON.stringify(value, null, 2).replaceAll('\n', '\n    ')}`)
      .join('');
  }
  yield count ? '\n  ]' : ']';
}

async function* none<T>(): AsyncGenerator<T> {}
