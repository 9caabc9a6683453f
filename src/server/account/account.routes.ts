// The signed-in user's own account (issue 24): delete it, or download everything the store keeps about
// it. Both act on the caller only: there is no email in the path to point at anyone else.
import { accountContract } from '../../lib/contracts/account.ts';
import { signedIn } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { rateLimit } from '../http/rate-limit.ts';
import type { Deps } from '../types.ts';
import type { AccountService } from './account.service.ts';

/** Exports a user may ask for in an hour: each reads all their orders. */
const EXPORTS_PER_HOUR = 20;

export function accountRoutes(deps: Deps, account: AccountService) {
  return (
    contractRouter(deps)
      // Signed in, and proven again moments ago: the body's Firebase ID token (account.service.ts).
      .on(accountContract.remove, signedIn(deps), async (c, { body: { idToken } }) => {
        await account.remove(c.get('user'), idToken);
        return { acknowledged: true, deletedCount: 1 };
      })
      .on(
        accountContract.export,
        signedIn(deps),
        rateLimit(deps, { name: 'data exports', points: EXPORTS_PER_HOUR, windowMs: 3600_000, by: 'user' }),
        async (c) => {
          const chunks = await account.export(c.get('user'));
          const encoder = new TextEncoder();
          // Pulled: the next page is read only when the client has taken the last one.
          const body = new ReadableStream<Uint8Array>({
            async pull(controller) {
              const next = await chunks.next();
              if (next.done) controller.close();
              else controller.enqueue(encoder.encode(next.value));
            },
            async cancel() {
              await chunks.return(undefined);
            },
          });
          const date = deps.now().toISOString().slice(0, 10);
          return c.body(body, 200, {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Disposition': `attachment; filename="ironcrest-data-${date}.json"`,
            'Cache-Control': 'no-store',
            'X-Content-Type-Options': 'nosniff',
          });
        },
      ).app
  );
}
