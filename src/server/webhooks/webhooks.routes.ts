// The Webhooks screen's calls (issue 29), all admin only. POST answers the secret, once; no read
// answers it again.
import { webhooksContract } from '../../lib/contracts/webhooks.ts';
import { adminOnly } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import { pageAsk, seqKeySchema } from '../db/paging.ts';
import type { Deps } from '../types.ts';
import type { WebhooksService } from './webhooks.service.ts';

export function webhooksRoutes(deps: Deps, webhooks: WebhooksService) {
  return contractRouter(deps)
    .on(webhooksContract.list, adminOnly(deps), () => webhooks.list())
    .on(webhooksContract.create, adminOnly(deps), (c, { body }) => webhooks.create(body, c.get('user').email))
    .on(webhooksContract.remove, adminOnly(deps), async (c, { params }) => {
      await webhooks.remove(params.id, c.get('user').email);
      return { acknowledged: true, deletedCount: 1 };
    })
    .on(webhooksContract.resume, adminOnly(deps), (c, { params }) => webhooks.resume(params.id, c.get('user').email))
    .on(webhooksContract.deliveries, adminOnly(deps), (_c, { params, query }) =>
      webhooks.deliveries(params.id, pageAsk(query, seqKeySchema)!),
    )
    .on(webhooksContract.replay, adminOnly(deps), (c, { params }) =>
      webhooks.replay(params.id, params.deliveryId, c.get('user').email),
    ).app;
}
