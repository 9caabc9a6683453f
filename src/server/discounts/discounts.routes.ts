import { discountsContract } from '../../lib/contracts/discounts.ts';
import { adminOnly } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { notFound } from '../errors.ts';
import type { Deps } from '../types.ts';
import type { DiscountsService } from './discounts.service.ts';

/** The Discounts screen's calls, all admin only. */
export function discountsRoutes(deps: Deps, discounts: DiscountsService) {
  return contractRouter(deps)
    .on(discountsContract.list, adminOnly(deps), () => discounts.list())
    .on(discountsContract.create, adminOnly(deps), async (c, { body }) => ({
      acknowledged: true,
      insertedId: await discounts.create(body, c.get('user').email),
    }))
    .on(discountsContract.remove, adminOnly(deps), async (c, { params }) => {
      if (!(await discounts.remove(params.id, c.get('user').email))) throw notFound('Discount code');
      return { acknowledged: true, deletedCount: 1 };
    }).app;
}
