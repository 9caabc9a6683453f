// The Webhooks screen's calls (issue 29), all admin only. POST answers the secret, once; no read
// answers it again.
import { Hono } from 'hono';
import { idSchema, webhookDeliveryIdSchema, webhookInputSchema } from '../../lib/schemas.ts';
import { adminOnly } from '../auth/guards.ts';
import { pageAsk, seqKeySchema } from '../http/paging.ts';
import { jsonBody, parse } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { WebhooksService } from './webhooks.service.ts';

export function webhooksRoutes(deps: Deps, webhooks: WebhooksService) {
  return new Hono<AppEnv>()
    .get('/webhooks', adminOnly(deps), async (c) => c.json(await webhooks.list()))
    .post('/webhooks', adminOnly(deps), async (c) => {
      const created = await webhooks.create(await jsonBody(c, webhookInputSchema), c.get('user').email);
      return c.json(created, 201);
    })
    .delete('/webhooks/:id', adminOnly(deps), async (c) => {
      await webhooks.remove(parse(idSchema, c.req.param('id')), c.get('user').email);
      return c.json({ acknowledged: true, deletedCount: 1 });
    })
    .post('/webhooks/:id/resume', adminOnly(deps), async (c) =>
      c.json(await webhooks.resume(parse(idSchema, c.req.param('id')), c.get('user').email)),
    )
    .get('/webhooks/:id/deliveries', adminOnly(deps), async (c) => {
      const id = parse(idSchema, c.req.param('id'));
      const ask = pageAsk({ limit: '20', ...c.req.query() }, seqKeySchema)!;
      return c.json(await webhooks.deliveries(id, ask));
    })
    .post('/webhooks/:id/deliveries/:deliveryId/replay', adminOnly(deps), async (c) => {
      const id = parse(idSchema, c.req.param('id'));
      const deliveryId = parse(webhookDeliveryIdSchema, c.req.param('deliveryId'));
      return c.json(await webhooks.replay(id, deliveryId, c.get('user').email));
    });
}
